/**
 * Where uploaded images are kept: one interface (put, get, delete by key) so that an object store (S3) can
 * replace the directory later without touching the upload or KYC services. The embedded default is a directory
 * under DATA_DIR (`<dataDir>/uploads/<2 chars>/<key>`), written through a temporary file and a rename so that a
 * crash never leaves a half-written image under its final name.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** A store of immutable blobs by key. Keys are the service's own (base64url id + extension), never user input. */
export interface UploadStorage {
  /** Stores `bytes` under `key` (replacing nothing: keys are random and new). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; a no-op when it is absent. */
  delete(key: string): Promise<void>;
}

/** A key the storage accepts: base64url characters and one extension, nothing that could leave the directory. */
const KEY_FORM = /^[A-Za-z0-9_-]{16,64}\.[a-z]{3,4}$/;

/** The directory storage under `dir` (created on first put). Throws on a malformed key (a programmer error). */
export function createDiskStorage(dir: string): UploadStorage {
  const fileOf = (key: string): string => {
    if (!KEY_FORM.test(key)) throw new Error(`bad upload storage key: ${key}`);
    return path.join(dir, key.slice(0, 2), key);
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await fs.writeFile(tmp, bytes, { mode: 0o600 });
      await fs.rename(tmp, file);
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}
