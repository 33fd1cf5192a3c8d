/**
 * The receiving QR image of a WeChat or Alipay method: pick it (or take a photo), compressed at quality 0.6 and
 * uploaded with progress; on failure the spec's toast "Upload failed" with the server's reason.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { ProgressBar } from 'antd-mobile';
import { AddOutline, CheckCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';

/** QR slot; `onUploaded(id)` after a successful upload, `onUploaded(null)` when replaced or failed. */
export function QrSlot(props: { label: string; hint: string; error?: string | null; upload: (file: File, onProgress: (f: number) => void) => Promise<string>; onUploaded: (id: string | null) => void }) {
  const { t } = useTranslation('payment');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    props.onUploaded(null);
    setDone(false);
    setPreview(URL.createObjectURL(file));
    setProgress(0);
    try {
      props.onUploaded(await props.upload(file, (f) => setProgress(Math.round(f * 100))));
      setDone(true);
    } catch (e) {
      setPreview('');
      showToast(t('uploadFailedReason', { reason: isApiError(e) ? e.message : '' }), 2000);
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="ex-field">
      <span className="ex-field-label">{props.label}</span>
      <label htmlFor={id} className={`pay-qr${props.error ? ' has-error' : ''}`}>
        {preview ? <img src={preview} alt={props.label} /> : <AddOutline className="pay-qr-add" aria-hidden="true" />}
        {done && <CheckCircleFill className="pay-qr-done" aria-label={t('uploaded')} />}
      </label>
      <input ref={input} id={id} type="file" accept="image/jpeg,image/png,image/webp" className="pay-qr-input" aria-label={props.label} onChange={(e) => void pick(e.target.files?.[0])} />
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
