/**
 * POST member/upload/image (multipart) with purpose SUPPORT (packages/api kyc.ts UploadPurpose) for a chat picture,
 * compressed at 0.6 first (spec section 9); the server checks it is an image of at most 5 MB.
 */
import { API_PATHS, type UploadPurpose } from '@exchange/api';
import { apiUpload } from '../../../shared/api-client';
import { compressImage, MAX_IMAGE_BYTES } from '../../../shared/image';

/** The upload purpose of customer-service pictures. */
export const SUPPORT_UPLOAD_PURPOSE: UploadPurpose = 'SUPPORT';

/** Why a picked file is refused before upload: 'notImage' (by its type), or null. */
export function refuseFile(file: File): 'notImage' | null {
  return file.type.startsWith('image/') ? null : 'notImage';
}

/** Compresses and uploads an image; resolves with its id. Throws ApiError with the server's reason. */
export async function uploadSupportImage(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const blob = await compressImage(file);
  if (blob.size > MAX_IMAGE_BYTES) throw new Error('tooLarge');
  const res = await apiUpload<{ imageId: string }>(API_PATHS.uploadImage, blob, { purpose: SUPPORT_UPLOAD_PURPOSE }, { onProgress });
  return res.imageId;
}
