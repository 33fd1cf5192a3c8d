/**
 * The receiving QR image of a WeChat or Alipay method: pick it (or take a photo), compressed at quality 0.6 and
 * uploaded with progress; on failure the spec's toast "Upload failed" with the server's reason.
 */
import { ProgressBar } from 'antd-mobile';
import { AddOutline, CheckCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api-client';
import { useImageUpload, type Uploader } from '../../../shared/image';

/** QR slot; `onUploaded(id)` after a successful upload, `onUploaded(null)` when replaced or failed. */
export function QrSlot(props: { label: string; hint: string; error?: string | null; upload: Uploader; onUploaded: (id: string | null) => void }) {
  const { t } = useTranslation('payment');
  const { id, input, preview, progress, done, pick } = useImageUpload({
    upload: props.upload,
    onUploaded: props.onUploaded,
    failureText: (e) => t('uploadFailedReason', { reason: isApiError(e) ? e.message : '' }),
  });

  return (
    <div className="ex-field">
      <span className="ex-field-label">{props.label}</span>
      <label htmlFor={id} className={`pay-qr${props.error ? ' has-error' : ''}`}>
        {preview ? <img src={preview} alt={props.label} /> : <AddOutline className="pay-qr-add" aria-hidden="true" />}
        {done && <CheckCircleFill className="pay-qr-done" aria-label={t('uploaded')} />}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="pay-qr-input"
        aria-label={props.label}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      {progress !== null && <ProgressBar percent={progress} text={`${progress}%`} className="pay-qr-progress" />}
      <p className="pay-hint">{props.hint}</p>
      {props.error && (
        <div className="ex-field-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}
