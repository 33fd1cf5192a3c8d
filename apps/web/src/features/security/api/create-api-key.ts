/**
 * POST member/apiKey/create: a new key with its label, type, permissions, IP whitelist and the second
 * factor. The answer carries an HMAC key's secret: the only time it is ever sent, so it is kept in the page's state
 * only, never in the query cache.
 */
import { API_KEY_PATHS, type ApiKeyType, type CreatedApiKey } from '@exchange/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { apiKeysQueryKey } from './list-api-keys';

/** What the create form sends (CreateApiKeyBody of packages/api api-keys.ts). */
export interface CreateApiKeyInput {
  label: string;
  keyType: ApiKeyType;
  /** ED25519 only: the PEM public key */
  publicKey?: string;
  spotTrade: boolean;
  futuresTrade: boolean;
  withdraw: boolean;
  /** addresses separated by commas, spaces or new lines; empty = any address */
  ipWhitelist: string;
  googleCode?: string;
  verifyCode?: string;
}

/** Creates the key. Throws ApiError (toasted, in the user's language). */
export function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { publicKey, ...rest } = input;
  return apiPost<CreatedApiKey>(API_KEY_PATHS.create, { ...rest, ...(input.keyType === 'ED25519' ? { publicKey } : {}) });
}

/** Mutation; refetches the list on success. */
export function useCreateApiKey() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({ mutationFn: createApiKey, onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysQueryKey(userId) }) });
}
