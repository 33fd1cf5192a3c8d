/**
 * /transaction/appeal?orderId=: opens an appeal on a PAID order (Binance P2P's form): a reason, a
 * description and up to 5 evidence images (uploaded as they are picked); the escrow stays frozen and an operator
 * decides. Back to the order on success.
 */
import { useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Radio, TextArea } from 'antd-mobile';
import { showToast } from '../../../shared/api-client';
import { EmptyState, PageHeader } from '../../../shared/ui';
import { useOrderActions } from '../api/order-actions';
import { uploadOtcImage } from '../api/upload-image';
import '../otc.css';

/** Reasons of an appeal (packages/api OtcAppealReason). */
export const APPEAL_REASONS = ['PAID_NOT_RELEASED', 'NOT_RECEIVED', 'AMOUNT_MISMATCH', 'OTHER'] as const;
/** At most this many evidence images. */
export const MAX_EVIDENCE = 5;

/** The appeal page. */
export default function AppealPage() {
  const { t } = useTranslation('otc');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orderId = params.get('orderId') ?? '';
  const { appeal } = useOrderActions();
  const [reason, setReason] = useState<string>('');
  const [description, setDescription] = useState('');
  const [images, setImages] = useState<{ id: string; preview: string }[]>([]);
  const [uploading, setUploading] = useState(false);
  const [touched, setTouched] = useState(false);
  const descriptionId = useId();

  const add = async (files: FileList | null) => {
    if (!files) return;
    const room = MAX_EVIDENCE - images.length;
    if (files.length > room) showToast(t('appeal.tooMany', { n: MAX_EVIDENCE }), 2000);
    setUploading(true);
    try {
      for (const file of Array.from(files).slice(0, room)) {
        if (!file.type.startsWith('image/')) {
          showToast(t('appeal.notImage'), 2000);
          continue;
        }
        const id = await uploadOtcImage(file);
        setImages((l) => [...l, { id, preview: URL.createObjectURL(file) }]);
      }
    } catch (e) {
      showToast(t('chat.uploadFailed', { reason: e instanceof Error ? e.message : '' }), 2000);
    } finally {
      setUploading(false);
    }
  };

  const errors = { reason: !reason ? t('appeal.needReason') : '', description: !description.trim() ? t('appeal.needDescription') : '' };
  const submit = () => {
    setTouched(true);
    if (errors.reason || errors.description) return;
    appeal.mutate(
      { orderId, reason, description: description.trim(), ...(images.length ? { imageIds: images.map((i) => i.id).join(',') } : {}) },
      {
        onSuccess: () => {
          showToast(t('appeal.submitted'));
          navigate(`/transaction/orderDetail?orderId=${encodeURIComponent(orderId)}`, { replace: true });
        },
      },
    );
  };

  if (!orderId)
    return (
      <div className="otc-page">
        <PageHeader title={t('appeal.title')} fallback="/transaction/otcOrder" />
        <EmptyState text={t('order.none')} />
      </div>
    );
  return (
    <div className="otc-page">
      <PageHeader title={t('appeal.title')} fallback={`/transaction/orderDetail?orderId=${encodeURIComponent(orderId)}`} />
      <section className="otc-section">
        <p className="otc-note">{t('appeal.intro')}</p>
        <h3 className="otc-h3">{t('appeal.reason')}</h3>
        <Radio.Group value={reason} onChange={(v) => setReason(String(v))}>
          {APPEAL_REASONS.map((r) => (
            <Radio key={r} value={r} className="otc-reason">
              {t(`appeal.reasons.${r}`)}
            </Radio>
          ))}
        </Radio.Group>
        {touched && errors.reason && (
          <div className="otc-error" role="alert">
            {errors.reason}
          </div>
        )}
      </section>
      <section className="otc-section">
        <h3 className="otc-h3">
          <label htmlFor={descriptionId}>{t('appeal.description')}</label>
        </h3>
        <TextArea
          id={descriptionId}
          placeholder={t('appeal.descriptionHint')}
          value={description}
          onChange={setDescription}
          maxLength={1000}
          showCount
          rows={4}
        />
        {touched && errors.description && (
          <div className="otc-error" role="alert">
            {errors.description}
          </div>
        )}
      </section>
      <section className="otc-section">
        <h3 className="otc-h3">{t('appeal.evidence', { n: images.length, max: MAX_EVIDENCE })}</h3>
        <div className="otc-evidence">
          {images.map((i, n) => (
            <div key={i.id} className="otc-evidence-item">
              <img src={i.preview} alt={t('appeal.evidenceN', { n: n + 1 })} />
              <button type="button" aria-label={t('appeal.remove', { n: n + 1 })} onClick={() => setImages((l) => l.filter((x) => x.id !== i.id))}>
                ×
              </button>
            </div>
          ))}
          {images.length < MAX_EVIDENCE && (
            <label className="otc-evidence-add" aria-label={t('appeal.addEvidence')}>
              {uploading ? '…' : '+'}
              <input type="file" accept="image/*" multiple hidden onChange={(e) => void add(e.target.files)} />
            </label>
          )}
        </div>
      </section>
      <div className="otc-actions">
        <Button block color="primary" loading={appeal.isPending} disabled={uploading} onClick={submit}>
          {t('appeal.submit')}
        </Button>
      </div>
    </div>
  );
}
