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
import { cleanImage, looksLikeImage, type CleanImage } from './image';
import { createTurns } from './turns';
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

/**
 * How long an image may stay unreferenced before the cleanup removes it (ms): 24 h to submit the KYC application,
 * payment method, OTC proof or appeal, chat or support message it was uploaded for. Within it the image counts
 * against the quota; after it only a referenced image does.
 */
export const UNUSED_UPLOAD_GRACE_MS = 24 * 3600_000;
/**
 * Past this age (ms) an image nothing refers to can no longer be referenced (`ownImage` answers null): one hour before
 * the grace period ends, so that a reference checked just before the cleanup's run is written (and projected, for the
 * OTC proof and evidence that travel through the engine) well before the cleanup could remove its image.
 */
export const UNUSED_UPLOAD_REFERABLE_MS = UNUSED_UPLOAD_GRACE_MS - 3600_000;
/** Rows the cleanup deletes in one statement, and the most statements of one run (the rest waits for the next run). */
export const UNUSED_UPLOAD_BATCH = 200;
export const UNUSED_UPLOAD_BATCHES_PER_RUN = 10;

/** What one cleanup run did: images removed (rows deleted), their stored bytes, and files whose removal failed. */
export interface UnusedUploadsRemoved {
  removed: number;
  bytes: number;
  /** Files the storage could not delete (their rows are gone: the bytes are orphaned, never served again). */
  storageErrors: number;
  /** True when the run stopped at UNUSED_UPLOAD_BATCHES_PER_RUN full batches: more are due at the next run. */
  more: boolean;
}

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
  /**
   * Removes the images uploaded more than UNUSED_UPLOAD_GRACE_MS before `nowMs` (Unix ms, wall clock: the rows'
   * `created_at` is the database's time) that no table refers to (uploads.repository.ts `uploadIsReferenced`): their
   * rows first, in batches of UNUSED_UPLOAD_BATCH (at most UNUSED_UPLOAD_BATCHES_PER_RUN per call), then their files.
   * A referenced image is never removed. Throws what the database throws; a file that cannot be deleted is counted,
   * not thrown.
   */
  removeUnused(nowMs: number): Promise<UnusedUploadsRemoved>;
  /**
   * Checks and re-encodes an image as `upload` does, without storing it (an operator's image for the console's
   * content, stored by the content domain). Throws the codes of cleanImage.
   */
  clean(bytes: Buffer): Promise<CleanImage>;
}

/**
 * Builds the uploads service; `storage` defaults to the directory `<dataDir>/uploads`, `now` (Unix ms) to the wall
 * clock, the clock of the rows' `created_at` (the demo's process clock may run ahead of it).
 */
export function createUploadsService(deps: { db: Db; dataDir: string; storage?: UploadStorage; now?: () => number }): UploadsService {
  const repo = createUploadsRepository(deps.db);
  const now = deps.now ?? (() => Date.now());
  const storage = deps.storage ?? createDiskStorage(path.join(deps.dataDir, 'uploads'));

  const inTurn = createTurns({ jobsAtOnce: IMAGE_JOBS_AT_ONCE, perUser: UPLOADS_IN_FLIGHT_PER_USER, waitingMax: UPLOADS_WAITING_MAX });

  async function row(imageId: string): Promise<UploadRow | null> {
    return IMAGE_ID_FORM.test(imageId) ? repo.find(imageId) : null;
  }

  return {
    clean: (bytes) => cleanImage(bytes),

    async upload(userId, purpose, bytes) {
      if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) throw new AppError('upload_purpose_invalid', 400, 'purpose');
      // junk is refused before it waits for a turn (cleanImage checks the type again, by file-type)
      if (!looksLikeImage(bytes.subarray(0, 12))) throw new AppError('upload_not_image', 400, 'file');
      // Only live images count (fresh or referenced); the exact count is asked only of a user with that many rows.
      const owner = BigInt(userId);
      if (
        (await repo.countByUser(owner)) >= UPLOADS_PER_USER_MAX &&
        (await repo.countLiveByUser(owner, new Date(now() - UNUSED_UPLOAD_GRACE_MS))) >= UPLOADS_PER_USER_MAX
      ) {
        throw new AppError('upload_quota_exceeded', 400, 'file');
      }
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
      if (!r || r.userId.toString() !== userId || r.purpose !== purpose) return null;
      // an image left unreferenced this long is due for removal: it may not be referenced now
      if (r.createdAt.getTime() < now() - UNUSED_UPLOAD_REFERABLE_MS && !(await repo.isReferenced(r.id))) return null;
      return r;
    },

    async removeUnused(nowMs) {
      const before = new Date(nowMs - UNUSED_UPLOAD_GRACE_MS);
      const done: UnusedUploadsRemoved = { removed: 0, bytes: 0, storageErrors: 0, more: false };
      for (let batch = 0; batch < UNUSED_UPLOAD_BATCHES_PER_RUN; batch++) {
        // rows first: a file whose delete fails is orphaned, never an image row without its bytes that is referred to
        const gone = await repo.deleteUnused(before, UNUSED_UPLOAD_BATCH);
        for (const g of gone) {
          done.removed++;
          done.bytes += g.bytes;
          await storage.delete(g.storageKey).catch(() => {
            done.storageErrors++;
          });
        }
        if (gone.length < UNUSED_UPLOAD_BATCH) return done;
      }
      done.more = true;
      return done;
    },
  };
}
