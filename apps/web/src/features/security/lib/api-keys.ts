/**
 * Form rules of the API key screens (packages/api api-keys.ts): the label 1-32 characters, an Ed25519
 * public key in PEM, the IP whitelist split as the server splits it (commas, spaces or new lines) with at most
 * MAX_IP_WHITELIST addresses, and a key that may withdraw only with a whitelist (the server's
 * api_key_withdraw_needs_ip). Each check returns an i18n key of the 'apikeys' namespace or null; the server checks
 * everything again (the address format among it) and its message is shown in the user's language.
 */
import { MAX_IP_WHITELIST, type ApiKeyType } from '@exchange/api';

/** Most characters of a label (CreateApiKeyBody.label). */
export const LABEL_MAX = 32;

/** The addresses of a whitelist text: split on commas, spaces and new lines, empties dropped. */
export function splitIps(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** The fields of the create form the rules look at. */
export interface ApiKeyFormValues {
  label: string;
  keyType: ApiKeyType;
  publicKey: string;
  withdraw: boolean;
  ipWhitelist: string;
}

/** Errors of the create form by field (i18n keys of 'apikeys'), null where the field is fine. */
export function checkApiKeyForm(v: ApiKeyFormValues): { label: string | null; publicKey: string | null; ipWhitelist: string | null } {
  const label = v.label.trim();
  const ips = splitIps(v.ipWhitelist);
  return {
    label: !label ? 'v.labelRequired' : label.length > LABEL_MAX ? 'v.labelTooLong' : null,
    publicKey:
      v.keyType !== 'ED25519' ? null : !v.publicKey.trim() ? 'v.publicKeyRequired' : /-----BEGIN PUBLIC KEY-----/.test(v.publicKey) ? null : 'v.publicKeyPem',
    ipWhitelist: ips.length > MAX_IP_WHITELIST ? 'v.ipTooMany' : v.withdraw && ips.length === 0 ? 'v.withdrawNeedsIp' : null,
  };
}

/** The permissions of a key as i18n keys of 'apikeys' (read first; always there). */
export function permissionKeys(k: { read: boolean; spotTrade: boolean; futuresTrade: boolean; withdraw: boolean }): string[] {
  return [k.read && 'perm.read', k.spotTrade && 'perm.spotTrade', k.futuresTrade && 'perm.futuresTrade', k.withdraw && 'perm.withdraw'].filter(
    (x): x is string => !!x,
  );
}
