// Rules of the API key form: the whitelist splits as the server splits it, 30 addresses at most, withdrawing needs a
// whitelist, the label 1-32 characters, an Ed25519 key in PEM; the permissions' tags in their order.
import { describe, expect, it } from 'vitest';
import { checkApiKeyForm, permissionKeys, splitIps } from './api-keys';

const OK = { label: 'Bot', keyType: 'HMAC_SHA256' as const, publicKey: '', withdraw: false, ipWhitelist: '' };

describe('api key rules', () => {
  it('splits the whitelist on commas, spaces and new lines', () => {
    expect(splitIps(' 203.0.113.7,2001:db8::1\n\n10.0.0.1  10.0.0.2 ,')).toEqual(['203.0.113.7', '2001:db8::1', '10.0.0.1', '10.0.0.2']);
    expect(splitIps('  \n ')).toEqual([]);
  });

  it('checks label, public key and whitelist', () => {
    expect(checkApiKeyForm(OK)).toEqual({ label: null, publicKey: null, ipWhitelist: null });
    expect(checkApiKeyForm({ ...OK, label: '  ' }).label).toBe('v.labelRequired');
    expect(checkApiKeyForm({ ...OK, label: 'x'.repeat(33) }).label).toBe('v.labelTooLong');
    expect(checkApiKeyForm({ ...OK, label: 'x'.repeat(32) }).label).toBeNull();
    expect(checkApiKeyForm({ ...OK, keyType: 'ED25519' }).publicKey).toBe('v.publicKeyRequired');
    expect(checkApiKeyForm({ ...OK, keyType: 'ED25519', publicKey: 'abc' }).publicKey).toBe('v.publicKeyPem');
    expect(checkApiKeyForm({ ...OK, keyType: 'ED25519', publicKey: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----' }).publicKey).toBeNull();
    expect(checkApiKeyForm({ ...OK, publicKey: 'ignored for HMAC' }).publicKey).toBeNull();
    expect(checkApiKeyForm({ ...OK, withdraw: true }).ipWhitelist).toBe('v.withdrawNeedsIp');
    expect(checkApiKeyForm({ ...OK, withdraw: true, ipWhitelist: '10.0.0.1' }).ipWhitelist).toBeNull();
    const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.0.0.${i}`).join(',');
    expect(checkApiKeyForm({ ...OK, ipWhitelist: ips(30) }).ipWhitelist).toBeNull();
    expect(checkApiKeyForm({ ...OK, ipWhitelist: ips(31) }).ipWhitelist).toBe('v.ipTooMany');
  });

  it('lists the permissions read first', () => {
    expect(permissionKeys({ read: true, spotTrade: false, futuresTrade: true, withdraw: true })).toEqual(['perm.read', 'perm.futuresTrade', 'perm.withdraw']);
  });
});
