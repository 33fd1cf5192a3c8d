/**
 * POST member/upload/image (multipart `file` + `purpose`): compresses the picked photo at quality 0.6 (spec
 * section 9) and uploads it with progress; resolves with the image id.
 */
import { apiUpload } from '../../../shared/api-client';
import { compressImage } from '../../../shared/image';
import { API_PATHS } from '@exchange/api';
import type { UploadPurpose } from './contract';

/** Compresses and uploads `file`. Throws ApiError with the server's precise reason (not an image, too small ...). */
export async function uploadImage(file: File, purpose: UploadPurpose, onProgress?: (fraction: number) => void): Promise<string> {
  const blob = await compressImage(file);
  const res = await apiUpload<{ imageId: string }>(API_PATHS.uploadImage, blob, { purpose }, { onProgress });
  return res.imageId;
}
