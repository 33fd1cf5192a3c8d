/** The sealed key file (key-backup.ts): round trip, a wrong passphrase, a changed byte and a short passphrase refused. */
import { describe, expect, it } from 'vitest';
import { openKeys, sealKeys, sealedRoles } from './key-backup';

const seed = Buffer.from(Array.from({ length: 32 }, (_, i) => 255 - i));
const secrets = Buffer.from('a2V5LWJ5dGVzLWtleS1ieXRlcy1rZXktYnl0ZXMtMzI=\n');
const PASS = 'a passphrase of some length';

describe('sealed key material', () => {
  it('opens with its passphrase to the same files, in order; the roles are readable without it', () => {
    const text = sealKeys(
      [
        { role: 'signer-seed', bytes: seed },
        { role: 'secrets-key', bytes: secrets },
      ],
      PASS,
    );
    expect(sealedRoles(text)).toEqual(['signer-seed', 'secrets-key']);
    expect(openKeys(text, PASS)).toEqual([
      { role: 'signer-seed', bytes: seed },
      { role: 'secrets-key', bytes: secrets },
    ]);
    // nothing of the keys in the clear, and two seals of the same keys differ (random salt and nonce)
    expect(text.includes(seed.toString('base64'))).toBe(false);
    expect(text.includes(secrets.toString('utf8').trim())).toBe(false);
    expect(sealKeys([{ role: 'signer-seed', bytes: seed }], PASS)).not.toBe(sealKeys([{ role: 'signer-seed', bytes: seed }], PASS));
  });

  it('refuses a wrong passphrase, a changed ciphertext byte and changed roles', () => {
    const text = sealKeys([{ role: 'signer-seed', bytes: seed }], PASS);
    expect(() => openKeys(text, `${PASS}!`)).toThrow('wrong passphrase or damaged key file');
    const j = JSON.parse(text) as { ciphertext: string; roles: string[] };
    const c = Buffer.from(j.ciphertext, 'base64');
    c[5] = (c[5] ?? 0) ^ 1;
    expect(() => openKeys(JSON.stringify({ ...j, ciphertext: c.toString('base64') }), PASS)).toThrow('wrong passphrase or damaged key file');
    expect(() => openKeys(JSON.stringify({ ...j, roles: ['secrets-key'] }), PASS)).toThrow('wrong passphrase or damaged key file');
    expect(() => openKeys('{"format":"other"}', PASS)).toThrow('not a sealed key file');
  });

  it('refuses a passphrase under 12 characters and a role given twice', () => {
    expect(() => sealKeys([{ role: 'signer-seed', bytes: seed }], 'short pass!')).toThrow('at least 12 characters');
    expect(() =>
      sealKeys(
        [
          { role: 'signer-seed', bytes: seed },
          { role: 'signer-seed', bytes: seed },
        ],
        PASS,
      ),
    ).toThrow('given twice');
  });
});
