/**
 * Checking and cleaning an uploaded image. The type comes from the bytes (file-type), never
 * from the name or the declared content type: only JPEG, PNG and WebP. The size limits are checked on the header
 * before any pixel is decoded (sharp's `limitInputPixels` refuses decompression bombs), then the image is decoded
 * in full (a truncated or damaged file fails here) and re-encoded in its own format, oriented by its EXIF
 * orientation and without any metadata (EXIF, GPS, ICC, XMP are all dropped: sharp keeps none unless asked).
 */
import sharp from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_PIXELS, UPLOAD_MIN_SIDE_PX } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';

/** The accepted image types, by the MIME type file-type reports. */
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** A cleaned image: the re-encoded bytes, their type and size in pixels. */
export interface CleanImage {
  bytes: Buffer;
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  ext: 'jpg' | 'png' | 'webp';
  width: number;
  height: number;
}

/**
 * True when `head` (the first bytes of a file, at least 12 once that many arrived) starts as a JPEG, PNG or WebP file
 * does: a cheap look while the upload still streams, so junk is refused before it is read whole or waits for a turn.
 */
export function looksLikeImage(head: Buffer): boolean {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return true;
  return head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP';
}

/** sharp's message for an image over `limitInputPixels`. */
const PIXEL_LIMIT = /exceeds pixel limit/i;

/**
 * Checks `input` and re-encodes it. Throws AppError (400): upload_too_large (over 5 MB, spec section 9),
 * upload_not_image (not JPEG, PNG or WebP by its bytes: a renamed text file, an SVG), upload_too_many_pixels (over
 * UPLOAD_MAX_PIXELS by its header), upload_too_small (a side under UPLOAD_MIN_SIDE_PX, our value), upload_damaged
 * (a header or pixel data that does not decode, e.g. a truncated JPEG).
 */
export async function cleanImage(input: Buffer): Promise<CleanImage> {
  if (input.length > UPLOAD_MAX_BYTES) throw new AppError('upload_too_large', 400, 'file');
  const type = await fileTypeFromBuffer(input);
  if (!type || !ACCEPTED.has(type.mime)) throw new AppError('upload_not_image', 400, 'file');
  const mime = type.mime as CleanImage['mime'];
  const options = { limitInputPixels: UPLOAD_MAX_PIXELS, failOn: 'error' as const, sequentialRead: true };
  let width: number;
  let height: number;
  let orientation: number | undefined;
  try {
    const meta = await sharp(input, options).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
    orientation = meta.orientation;
  } catch (err) {
    throw new AppError(PIXEL_LIMIT.test(String((err as Error).message)) ? 'upload_too_many_pixels' : 'upload_damaged', 400, 'file');
  }
  if (width * height > UPLOAD_MAX_PIXELS) throw new AppError('upload_too_many_pixels', 400, 'file');
  // Orientations 5-8 swap the sides once the image is turned upright.
  const [w, h] = orientation !== undefined && orientation >= 5 ? [height, width] : [width, height];
  if (w < UPLOAD_MIN_SIDE_PX || h < UPLOAD_MIN_SIDE_PX) throw new AppError('upload_too_small', 400, 'file');
  try {
    const pipeline = sharp(input, options).rotate();
    const encoded =
      mime === 'image/jpeg'
        ? pipeline.jpeg({ quality: 85, mozjpeg: false })
        : mime === 'image/png'
          ? pipeline.png({ compressionLevel: 6 })
          : pipeline.webp({ quality: 85 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, mime, ext: mime === 'image/jpeg' ? 'jpg' : mime === 'image/png' ? 'png' : 'webp', width: info.width, height: info.height };
  } catch (err) {
    throw new AppError(PIXEL_LIMIT.test(String((err as Error).message)) ? 'upload_too_many_pixels' : 'upload_damaged', 400, 'file');
  }
}
