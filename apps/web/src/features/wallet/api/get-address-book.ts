/** GET asset/wallet/getAddressBook (login): the caller's saved withdrawal addresses (all coins; the form filters). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type AddressBookEntry } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { walletKeys } from './keys';

export type { AddressBookEntry } from '@exchange/api';

/** Fetches the address book. Throws ApiError (silent: the picker shows LoadFailed). */
export function getAddressBook(signal?: AbortSignal): Promise<AddressBookEntry[]> {
  return apiGet<AddressBookEntry[]>(API_PATHS.getAddressBook, undefined, { signal, silent: true });
}

/** queryOptions of the address book. */
export function addressBookQueryOptions(userId: string, enabled: boolean) {
  return queryOptions({ queryKey: walletKeys.addressBook(userId), queryFn: ({ signal }) => getAddressBook(signal), enabled: enabled && !!userId });
}

/** The signed-in user's address book (fetched when `enabled`: the picker is open). */
export function useAddressBook(enabled = true) {
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  return useQuery(addressBookQueryOptions(userId, enabled && isLogin));
}
