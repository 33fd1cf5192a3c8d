/**
 * Secrets at rest: AES-256-GCM from node:crypto, one random 96-bit nonce per
 * sealing, the 128-bit tag checked on opening, so a changed byte or another key is refused rather than read as
 * garbage. Sealed form: "v1." + base64url(nonce | ciphertext | tag). `purpose` is bound as associated data, so a
 * value sealed for one use (e.g. a user's TOTP secret) cannot be replayed as another's.
 *
 * The key comes from SECRETS_KEY (base64, 32 bytes) or, in the embedded mode, from `<DATA_DIR>/secrets.key`,
 * created at first start with mode 0600 (`loadOrCreateKeyFile`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Seals and opens small secrets. */
export interface SecretBox {
  /** Encrypts `plain` for `purpose`; returns the sealed text. */
  seal(plain: string, purpose: string): string;
  /** Decrypts a sealed text for `purpose`; throws SecretBoxError when it was tampered with, sealed for another purpose or with another key. */
  open(sealed: string, purpose: string): string;
}

/** A sealed value that cannot be opened (tampered, wrong key, wrong purpose, malformed). */
export class SecretBoxError extends Error {
  constructor() {
    super('sealed secret refused');
    this.name = 'SecretBoxError';
  }
}

const PREFIX = 'v1.';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** File name of the embedded mode's key under DATA_DIR. */
export const KEY_FILE = 'secrets.key';

/** A secret box over a 32-byte key; throws on a key of another length. */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret box: the key must be 32 bytes');
  const k = Buffer.from(key);
  return {
    seal(plain, purpose) {
      const nonce = crypto.randomBytes(NONCE_BYTES);
      const c = crypto.createCipheriv('aes-256-gcm', k, nonce);
      c.setAAD(Buffer.from(purpose, 'utf8'));
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return PREFIX + Buffer.concat([nonce, body, c.getAuthTag()]).toString('base64url');
    },
    open(sealed, purpose) {
      if (!sealed.startsWith(PREFIX)) throw new SecretBoxError();
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError();
      try {
        const d = crypto.createDecipheriv('aes-256-gcm', k, raw.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
        d.setAAD(Buffer.from(purpose, 'utf8'));
        d.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        return Buffer.concat([d.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), d.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError();
      }
    },
  };
}

/**
 * The key in `<dataDir>/secrets.key` (base64 of 32 bytes), created with mode 0600 when absent (exclusive create,
 * so two processes starting at once end up with the same key). Throws when the file exists but is not a key.
 */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key (base64)`);
  return key;
}

/**
 * The secret box of a configuration: SECRETS_KEY when set, else the key file under DATA_DIR in the embedded mode;
 * null in the scale-out mode without SECRETS_KEY (every gateway would make a key of its own).
 */
export function secretBoxFromConfig(config: { secretsKey: string | undefined; dataDir: string; engineTransport: string }): SecretBox | null {
  if (config.secretsKey !== undefined) return createSecretBox(Buffer.from(config.secretsKey, 'base64'));
  if (config.engineTransport !== 'embedded') return null;
  return createSecretBox(loadOrCreateKeyFile(config.dataDir));
}
