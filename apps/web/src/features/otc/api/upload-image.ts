/**
 * POST member/upload/image (multipart) with purpose OTC (packages/api kyc.ts UploadPurpose) for the OTC images:
 * payment proof, appeal evidence, chat pictures, compressed at 0.6 first (spec section 9).
 */
import { API_PATHS, type UploadPurpose } from '@exchange/api';
import { apiUpload } from '../../../shared/api-client';
import { compressImage } from '../../../shared/image';

/** The upload purpose of every OTC image. */
export const OTC_UPLOAD_PURPOSE: UploadPurpose = 'OTC';

/** Compresses and uploads an image; resolves with its id. Throws ApiError with the server's reason. */
export async function uploadOtcImage(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const blob = await compressImage(file);
  const res = await apiUpload<{ imageId: string }>(API_PATHS.uploadImage, blob, { purpose: OTC_UPLOAD_PURPOSE }, { onProgress });
  return res.imageId;
}
