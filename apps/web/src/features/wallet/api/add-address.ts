/** POST asset/wallet/addAddress: saves a withdrawal address with a label (valid for the chain, EIP-55 when mixed case). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PATHS, type AddAddressBody, type AddressBookEntry } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

/** Saves the address. Throws ApiError (toasted). */
export function addAddress(body: AddAddressBody): Promise<AddressBookEntry> {
  return apiPost<AddressBookEntry>(API_PATHS.addAddress, { ...body });
}

/** Mutation; the address book is refetched. */
export function useAddAddress() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: addAddress, onSuccess: () => qc.invalidateQueries({ queryKey: walletKeys.addressBook(userId) }) });
}
