/** POST member/upload/image with purpose PAY_QR: the WeChat/Alipay receiving QR code, compressed at 0.6 first. */
import { apiUpload } from '../../../shared/api-client';
import { compressImage } from '../../../shared/image';
import { API_PATHS } from '@exchange/api';

/** Compresses and uploads the QR image; resolves with its id. Throws ApiError with the server's reason. */
export async function uploadQr(file: File, onProgress?: (fraction: number) => void): Promise<string> {
  const blob = await compressImage(file);
  const res = await apiUpload<{ imageId: string }>(API_PATHS.uploadImage, blob, { purpose: 'PAY_QR' }, { onProgress });
  return res.imageId;
}
