/**
 * Image compression before upload (spec section 9: quality 0.6). The picked photo is drawn
 * on a canvas (capped at MAX_EDGE_PX on its longer edge: a phone photo of 4000 px is more than a document check
 * needs and several MB) and encoded as JPEG at quality 0.6. Files that are not images are passed through unchanged,
 * so the server's precise reason ("not an image") reaches the user rather than a browser decoding error.
 */

/** JPEG quality of the spec (section 9). */
export const IMAGE_QUALITY = 0.6;
/** Longest edge after compression, px. Above the server's 300 px minimum by far; keeps an ID card legible. */
export const MAX_EDGE_PX = 2000;
/** Largest upload of the spec (section 9), bytes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Target size of an image `w` x `h` whose longer edge is capped at `maxEdge` (aspect ratio kept, whole pixels). */
export function fitWithin(w: number, h: number, maxEdge = MAX_EDGE_PX): { width: number; height: number } {
  const long = Math.max(w, h);
  if (long <= maxEdge) return { width: w, height: h };
  const k = maxEdge / long;
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
}

/**
 * Compresses `file` to JPEG at IMAGE_QUALITY; resolves with the original file when it is not an image the browser
 * can decode, or when compressing would make it larger.
 */
export async function compressImage(file: File): Promise<Blob> {
  if (!file.type.startsWith('image/')) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file;
  }
  const { width, height } = fitWithin(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return file;
  // JPEG has no transparency: a transparent PNG (a QR code) gets a white background, not black.
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', IMAGE_QUALITY));
  if (!blob || blob.size >= file.size) return file;
  return blob;
}
