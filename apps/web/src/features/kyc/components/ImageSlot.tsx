/**
 * One photo of advanced verification: pick a picture or take one (the phone offers both for an image input),
 * compress it at quality 0.6 and upload it with a progress bar (uploadImage); the preview shows the compressed
 * picture. On failure the spec's toast "Upload failed" with the server's precise reason (not an image, too large,
 * too small, damaged), and the slot stays empty.
 */
import { ProgressBar } from 'antd-mobile';
import { AddOutline, CheckCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { MAX_IMAGE_BYTES, useImageUpload, type Uploader } from '../../../shared/image';

/** A photo slot; `onUploaded(id)` when done, `onUploaded(null)` when replaced or failed. */
export function ImageSlot(props: { label: string; hint?: string; upload: Uploader; onUploaded: (imageId: string | null) => void }) {
  const { t } = useTranslation('kyc');
  const { id, input, preview, progress, done, pick } = useImageUpload({
    upload: props.upload,
    onUploaded: props.onUploaded,
    refuse: (file) => (file.type.startsWith('image/') ? null : t('uploadFailedReason', { reason: t('v.notImage') })),
    failureText: (e) => t('uploadFailedReason', { reason: isApiError(e) ? e.message : t('v.tooLarge', { mb: MAX_IMAGE_BYTES / 1024 / 1024 }) }),
  });

  return (
    <div className="kyc-slot">
      <label htmlFor={id} className="kyc-slot-box">
        {preview ? <img src={preview} alt={props.label} /> : <AddOutline className="kyc-slot-add" aria-hidden="true" />}
        {done && <CheckCircleFill className="kyc-slot-done" aria-label={t('uploaded')} />}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="kyc-slot-input"
        aria-label={props.label}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      <div className="kyc-slot-label">{props.label}</div>
      {props.hint && <div className="kyc-slot-hint">{props.hint}</div>}
      {progress !== null && <ProgressBar percent={progress} text={`${progress}%`} className="kyc-slot-progress" aria-label={t('uploading')} />}
    </div>
  );
}
