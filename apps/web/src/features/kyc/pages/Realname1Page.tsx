/**
 * /realname1 (spec sections 2 and 4): advanced verification with three photos, the ID front, back and a
 * photo holding it, each compressed at quality 0.6 and uploaded with progress (ImageSlot); submit when all three are
 * in, then it is under review. Needs basic verification first (otherwise a prompt to /realname).
 */
import { useState } from 'react';
import { Button, Result } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useKyc } from '../../../shared/session';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import type { UploadPurpose } from '../api/contract';
import { uploadImage } from '../api/upload-image';
import { useSubmitAdvanced } from '../api/submit-advanced';
import { ImageSlot } from '../components/ImageSlot';
import { KycStateView } from '../components/KycStateView';
import '../kyc.css';

/** Advanced verification page. */
export default function Realname1Page() {
  const { t } = useTranslation('kyc');
  const navigate = useNavigate();
  const kyc = useKyc();
  const [resubmit, setResubmit] = useState(false);
  let body;
  if (kyc.isLoading) body = <InlineLoading />;
  else if (kyc.isError || !kyc.data) body = <LoadFailed error={kyc.error} onRetry={() => void kyc.refetch()} />;
  else if (kyc.data.basic.state !== 'PASS')
    body = (
      <Result
        status="info"
        title={t('basicFirst')}
        description={
          <Button color="primary" size="small" onClick={() => navigate('/realname')}>
            {t('toBasic')}
          </Button>
        }
      />
    );
  else {
    const adv = kyc.data.advanced;
    body =
      adv.state === 'NONE' || (adv.state === 'REJECTED' && resubmit) ? (
        <AdvancedForm />
      ) : (
        <KycStateView state={adv.state} level="advanced" reason={adv.rejectReason} onResubmit={() => setResubmit(true)} />
      );
  }
  return (
    <div className="kyc-page">
      <PageHeader title={t('advancedTitle')} fallback="/personalCenter" />
      {body}
    </div>
  );
}

const SLOTS: { purpose: Exclude<UploadPurpose, 'PAY_QR'>; key: string }[] = [
  { purpose: 'ID_FRONT', key: 'front' },
  { purpose: 'ID_BACK', key: 'back' },
  { purpose: 'ID_HANDHELD', key: 'handheld' },
];

function AdvancedForm() {
  const { t } = useTranslation('kyc');
  const [ids, setIds] = useState<Record<string, string | null>>({});
  const submit = useSubmitAdvanced();
  const ready = SLOTS.every((s) => ids[s.purpose]);
  const onSubmit = async () => {
    if (!ready) {
      showToast(t('v.photosRequired'));
      return;
    }
    try {
      await submit.mutateAsync({ frontImageId: ids.ID_FRONT!, backImageId: ids.ID_BACK!, handheldImageId: ids.ID_HANDHELD! });
      showToast(t('submitted'));
    } catch {
      /* toasted */
    }
  };
  return (
    <div className="kyc-form">
      <p className="kyc-intro">{t('advancedIntro')}</p>
      <div className="kyc-slots">
        {SLOTS.map((s) => (
          <ImageSlot
            key={s.purpose}
            label={t(`photo.${s.key}`)}
            hint={t(`photo.${s.key}Hint`)}
            upload={(file, onProgress) => uploadImage(file, s.purpose, onProgress)}
            onUploaded={(id) => setIds((x) => ({ ...x, [s.purpose]: id }))}
          />
        ))}
      </div>
      <p className="kyc-hint">{t('photoRules')}</p>
      <Button block color="primary" disabled={!ready} loading={submit.isPending} onClick={() => void onSubmit()}>
        {t('common:submit')}
      </Button>
    </div>
  );
}
