/**
 * Proves the secret box: a sealed value opens with the same key and purpose only; a changed byte anywhere, another
 * key, another purpose or a malformed text is refused (SecretBoxError), never read as garbage; two sealings of one
 * value differ (fresh nonce). The key file is created once with mode 0600 and read back unchanged.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, KEY_FILE, loadOrCreateKeyFile, SecretBoxError, secretBoxFromConfig } from './secret-box';

const key = () => crypto.randomBytes(32);

describe('secret box', () => {
  it('opens what it sealed, with a fresh nonce each time', () => {
    const box = createSecretBox(key());
    const a = box.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'totp:1');
    const b = box.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'totp:1');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain('JBSWY3DP');
    expect(box.open(a, 'totp:1')).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(box.open(box.seal('', 'p'), 'p')).toBe('');
  });

  it('refuses a tampered value, another key, another purpose and malformed text', () => {
    const k = key();
    const box = createSecretBox(k);
    const sealed = box.seal('secret', 'totp:1');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (let i = 0; i < raw.length; i++) {
      const t = Buffer.from(raw);
      t[i]! ^= 1;
      expect(() => box.open(`v1.${t.toString('base64url')}`, 'totp:1'), `byte ${i}`).toThrow(SecretBoxError);
    }
    expect(() => createSecretBox(key()).open(sealed, 'totp:1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'totp:2')).toThrow(SecretBoxError);
    for (const bad of ['', 'v1.', 'v2.' + sealed.slice(3), 'v1.AAAA', sealed.slice(0, -4)]) expect(() => box.open(bad, 'totp:1')).toThrow(SecretBoxError);
    expect(createSecretBox(Buffer.from(k)).open(sealed, 'totp:1')).toBe('secret');
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow();
  });

  it('creates the key file once with mode 0600 and reads it back; SECRETS_KEY wins; none in the scale-out mode without it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'));
    try {
      const first = loadOrCreateKeyFile(dir);
      expect(first.length).toBe(32);
      expect(fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(loadOrCreateKeyFile(dir).equals(first)).toBe(true);
      const fromFile = secretBoxFromConfig({ secretsKey: undefined, dataDir: dir, engineTransport: 'embedded' })!;
      expect(createSecretBox(first).open(fromFile.seal('x', 'p'), 'p')).toBe('x');
      const env = key();
      const fromEnv = secretBoxFromConfig({ secretsKey: env.toString('base64'), dataDir: dir, engineTransport: 'nats' })!;
      expect(createSecretBox(env).open(fromEnv.seal('y', 'p'), 'p')).toBe('y');
      expect(secretBoxFromConfig({ secretsKey: undefined, dataDir: dir, engineTransport: 'nats' })).toBeNull();
      fs.writeFileSync(path.join(dir, KEY_FILE), 'short');
      expect(() => loadOrCreateKeyFile(dir)).toThrow(/32-byte/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
