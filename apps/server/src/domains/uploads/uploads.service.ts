/**
 * The uploads service: checks and re-encodes an image (image.ts), stores it under a random,
 * unguessable id (128 bits, base64url) in the upload storage and records its metadata; serves it back only to its
 * owner, or to an operator through the KYC service (`imageFor`). An image that fails a check is never stored; a
 * metadata row that cannot be written takes its stored bytes with it.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { UploadPurpose } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/shared/errors';
import { cleanImage, looksLikeImage } from './image';
import { createDiskStorage, type UploadStorage } from './upload-storage';
import { createUploadsRepository, type UploadRow } from './uploads.repository';

/** Purposes an upload may have (packages/api UploadPurpose). */
export const UPLOAD_PURPOSES: readonly UploadPurpose[] = ['ID_FRONT', 'ID_BACK', 'ID_HANDHELD', 'PAY_QR', 'OTC', 'SUPPORT'];

/**
 * Images checked and re-encoded at once; further uploads wait their turn. A 40-megapixel image takes ~160 MB to
 * decode: a burst of uploads must not take the process's memory (or both cores) from order entry.
 */
export const IMAGE_JOBS_AT_ONCE = 2;
/**
 * Uploads of one user being checked or waiting at once; beyond it 429 upload_busy (each holds up to 5 MB in memory).
 * Turns go round the users waiting (one job each in turn), so one user's burst never holds another's upload back by
 * more than the jobs running and one job per other waiting user.
 */
export const UPLOADS_IN_FLIGHT_PER_USER = 3;
/** Uploads waiting for a turn over all users; beyond it 503 service_unavailable. */
export const UPLOADS_WAITING_MAX = 64;
/** Images one user may have stored (identity documents, payment QR codes, P2P proofs and chat, support). */
export const UPLOADS_PER_USER_MAX = 200;

/** The form of an image id: 22 base64url characters. */
const IMAGE_ID_FORM = /^[A-Za-z0-9_-]{22}$/;

/** Who asks for an image: a user (only their own) or an operator (any). */
export type ImageViewer = { userId: string } | { operatorId: string };

export interface UploadsService {
  /**
   * Checks, cleans and stores an image of `userId` for `purpose`; returns its id. Throws AppError
   * upload_purpose_invalid, and the codes of cleanImage (upload_too_large, upload_not_image, upload_too_many_pixels,
   * upload_too_small, upload_damaged).
   */
  upload(userId: string, purpose: string, bytes: Buffer): Promise<{ imageId: string }>;
  /** The bytes and MIME type of an image for `viewer`; throws not_found (404) for an unknown id or another user's image. */
  imageFor(imageId: string, viewer: ImageViewer): Promise<{ bytes: Buffer; mime: string; ownerId: string }>;
  /**
   * The metadata of `userId`'s own image `imageId` of purpose `purpose`, or null when the id is unknown, malformed,
   * another user's or of another purpose (the KYC and payment services check what a user refers to with it).
   */
  ownImage(userId: string, imageId: string, purpose: UploadPurpose): Promise<UploadRow | null>;
}

/** Builds the uploads service; `storage` defaults to the directory `<dataDir>/uploads`. */
export function createUploadsService(deps: { db: Db; dataDir: string; storage?: UploadStorage }): UploadsService {
  const repo = createUploadsRepository(deps.db);
  const storage = deps.storage ?? createDiskStorage(path.join(deps.dataDir, 'uploads'));

  let running = 0;
  let waitingTotal = 0;
  /** The waiters of each user, users in turn order (a Map keeps insertion order: served users go to the back). */
  const waiting = new Map<string, Array<() => void>>();
  const inFlight = new Map<string, number>();
  /** Gives a finished job's slot to the first waiting user's first waiter (that user then goes to the back). */
  function handOff(): void {
    const first = waiting.entries().next();
    if (first.done === true) {
      running--;
      return;
    }
    const [user, q] = first.value;
    const next = q.shift()!;
    waiting.delete(user);
    if (q.length > 0) waiting.set(user, q);
    waitingTotal--;
    next();
  }
  /**
   * Runs `userId`'s `job` when one of IMAGE_JOBS_AT_ONCE slots is free, turns going round the waiting users. Throws
   * upload_busy (429) over UPLOADS_IN_FLIGHT_PER_USER and service_unavailable (503) over UPLOADS_WAITING_MAX.
   */
  async function inTurn<T>(userId: string, job: () => Promise<T>): Promise<T> {
    const mine = inFlight.get(userId) ?? 0;
    if (mine >= UPLOADS_IN_FLIGHT_PER_USER) throw new AppError('upload_busy', 429, 'file');
    if (running >= IMAGE_JOBS_AT_ONCE && waitingTotal >= UPLOADS_WAITING_MAX) throw new AppError('service_unavailable', 503);
    inFlight.set(userId, mine + 1);
    try {
      // A finished job hands its slot straight to the next waiter, so a newcomer can never slip in between.
      if (running >= IMAGE_JOBS_AT_ONCE) {
        await new Promise<void>((resolve) => {
          const q = waiting.get(userId);
          if (q) q.push(resolve);
          else waiting.set(userId, [resolve]);
          waitingTotal++;
        });
      } else running++;
      try {
        return await job();
      } finally {
        handOff();
      }
    } finally {
      const n = (inFlight.get(userId) ?? 1) - 1;
      if (n === 0) inFlight.delete(userId);
      else inFlight.set(userId, n);
    }
  }

  async function row(imageId: string): Promise<UploadRow | null> {
    return IMAGE_ID_FORM.test(imageId) ? repo.find(imageId) : null;
  }

  return {
    async upload(userId, purpose, bytes) {
      if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) throw new AppError('upload_purpose_invalid', 400, 'purpose');
      // junk is refused before it waits for a turn (cleanImage checks the type again, by file-type)
      if (!looksLikeImage(bytes.subarray(0, 12))) throw new AppError('upload_not_image', 400, 'file');
      if ((await repo.countByUser(BigInt(userId))) >= UPLOADS_PER_USER_MAX) throw new AppError('upload_quota_exceeded', 400, 'file');
      const img = await inTurn(userId, () => cleanImage(bytes));
      const imageId = randomBytes(16).toString('base64url');
      const storageKey = `${imageId}.${img.ext}`;
      await storage.put(storageKey, img.bytes);
      try {
        await repo.insert({
          id: imageId,
          userId: BigInt(userId),
          purpose,
          mime: img.mime,
          width: img.width,
          height: img.height,
          bytes: img.bytes.length,
          sha256: createHash('sha256').update(img.bytes).digest('hex'),
          storageKey,
        });
      } catch (err) {
        await storage.delete(storageKey).catch(() => undefined);
        throw err;
      }
      return { imageId };
    },

    async imageFor(imageId, viewer) {
      const r = await row(imageId);
      if (!r || ('userId' in viewer && r.userId.toString() !== viewer.userId)) throw new AppError('not_found', 404);
      const bytes = await storage.get(r.storageKey);
      if (!bytes) throw new AppError('not_found', 404);
      return { bytes, mime: r.mime, ownerId: r.userId.toString() };
    },

    async ownImage(userId, imageId, purpose) {
      const r = await row(imageId);
      return r && r.userId.toString() === userId && r.purpose === purpose ? r : null;
    },
  };
}
