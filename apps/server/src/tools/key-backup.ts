/**
 * The key material of a data directory, sealed under an operator's passphrase for a backup: the hot-wallet signer's
 * seed (SIGNER_SEED_FILE, default DATA_DIR/wallet-seed.key: every deposit address and the hot wallet derive from it)
 * and the embedded mode's key of the secrets at rest (DATA_DIR/secrets.key). A backup never holds them in the clear:
 * whoever reads the backup must not be able to spend the hot wallet.
 *
 * The sealed file (`keys.enc`, JSON): the key is derived from the passphrase with scrypt (RFC 7914; N = 2^17, r = 8,
 * p = 1, a 16-byte random salt: OWASP's password-storage parameters for scrypt) and the files are encrypted with
 * AES-256-GCM (a 12-byte random nonce; the header is authenticated as additional data), so a wrong passphrase or a
 * changed byte is refused, never half-read.
 */
import crypto from 'node:crypto';

/** One key file: its role and its bytes. */
export interface KeyFile {
  /** `signer-seed` (the wallet's seed file) or `secrets-key` (the key of the secrets at rest). */
  role: KeyRole;
  bytes: Buffer;
}

/** The key files a backup may hold. */
export type KeyRole = 'signer-seed' | 'secrets-key';

/** The JSON of a sealed key file (all binary fields base64). */
interface SealedKeys {
  format: 'exchange-keys/1';
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: { name: 'aes-256-gcm'; nonce: string; tag: string };
  /** The roles inside, in order (authenticated; readable without the passphrase). */
  roles: KeyRole[];
  ciphertext: string;
}

const FORMAT = 'exchange-keys/1';
const SCRYPT = { N: 2 ** 17, r: 8, p: 1 };
/** Least passphrase length accepted when sealing (characters). */
export const MIN_PASSPHRASE_LENGTH = 12;

function derive(passphrase: string, salt: Buffer, p: { N: number; r: number; p: number }): Buffer {
  // scrypt needs 128 * N * r bytes; Node's default limit (32 MiB) is below it for N = 2^17
  return crypto.scryptSync(passphrase.normalize('NFC'), salt, 32, { N: p.N, r: p.r, p: p.p, maxmem: 256 * p.N * p.r + 1024 * 1024 });
}

function header(s: Omit<SealedKeys, 'ciphertext' | 'cipher'> & { cipher: { name: string; nonce: string } }): Buffer {
  return Buffer.from(JSON.stringify([s.format, s.kdf, s.cipher.name, s.cipher.nonce, s.roles]), 'utf8');
}

/**
 * Seals `files` under `passphrase`: the text of a `keys.enc` file. Throws when the passphrase is shorter than
 * MIN_PASSPHRASE_LENGTH characters or a role is given twice.
 */
export function sealKeys(files: readonly KeyFile[], passphrase: string): string {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) throw new Error(`the backup passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters`);
  const roles = files.map((f) => f.role);
  if (new Set(roles).size !== roles.length) throw new Error('a key file is given twice');
  const salt = crypto.randomBytes(16);
  const nonce = crypto.randomBytes(12);
  const kdf = { name: 'scrypt' as const, ...SCRYPT, salt: salt.toString('base64') };
  const head = { format: FORMAT as typeof FORMAT, kdf, cipher: { name: 'aes-256-gcm' as const, nonce: nonce.toString('base64') }, roles };
  const c = crypto.createCipheriv('aes-256-gcm', derive(passphrase, salt, SCRYPT), nonce);
  c.setAAD(header(head));
  // each file: 4-byte big-endian length, then its bytes
  const plain = Buffer.concat(
    files.flatMap((f) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(f.bytes.length);
      return [len, f.bytes];
    }),
  );
  const ciphertext = Buffer.concat([c.update(plain), c.final()]);
  const sealed: SealedKeys = { ...head, cipher: { ...head.cipher, tag: c.getAuthTag().toString('base64') }, ciphertext: ciphertext.toString('base64') };
  return `${JSON.stringify(sealed, null, 2)}\n`;
}

/** The roles a sealed file holds (no passphrase needed). Throws on a text that is not a sealed key file. */
export function sealedRoles(text: string): KeyRole[] {
  return parse(text).roles;
}

function parse(text: string): SealedKeys {
  let s: SealedKeys;
  try {
    s = JSON.parse(text) as SealedKeys;
  } catch {
    throw new Error('not a sealed key file (not JSON)');
  }
  if (s?.format !== FORMAT || s.kdf?.name !== 'scrypt' || s.cipher?.name !== 'aes-256-gcm' || !Array.isArray(s.roles))
    throw new Error(`not a sealed key file of format ${FORMAT}`);
  return s;
}

/**
 * Opens a sealed key file with `passphrase`: its files in the order sealed. Throws "wrong passphrase or damaged key
 * file" when the passphrase is not the one it was sealed with or any byte changed (nothing is returned then).
 */
export function openKeys(text: string, passphrase: string): KeyFile[] {
  const s = parse(text);
  const { N, r, p } = s.kdf;
  if (![N, r, p].every((x) => Number.isSafeInteger(x) && x > 0) || N > 2 ** 20 || r > 16 || p > 4)
    throw new Error('sealed key file: unsupported scrypt parameters');
  const d = crypto.createDecipheriv('aes-256-gcm', derive(passphrase, Buffer.from(s.kdf.salt, 'base64'), { N, r, p }), Buffer.from(s.cipher.nonce, 'base64'));
  d.setAAD(header(s));
  d.setAuthTag(Buffer.from(s.cipher.tag, 'base64'));
  let plain: Buffer;
  try {
    plain = Buffer.concat([d.update(Buffer.from(s.ciphertext, 'base64')), d.final()]);
  } catch {
    throw new Error('wrong passphrase or damaged key file');
  }
  const out: KeyFile[] = [];
  let at = 0;
  for (const role of s.roles) {
    const n = plain.readUInt32BE(at);
    out.push({ role, bytes: plain.subarray(at + 4, at + 4 + n) });
    at += 4 + n;
  }
  if (at !== plain.length) throw new Error('sealed key file: its contents do not match its roles');
  return out;
}
