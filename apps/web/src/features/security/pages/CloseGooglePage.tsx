/**
 * /accountCenter/closeGoogle: unbind the Google authenticator with its current code and a VERIFY code,
 * after the warning that withdrawals are then locked for 24 hours (spec section 9).
 */
import { useState } from 'react';
import { Button, NoticeBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadFeedback } from '../../../shared/ui/feedback';
import { showToast } from '../../../shared/api-client';
import { EmptyState } from '../../../shared/ui';
import type { SecurityInfo } from '../api/contract';
import { useGoogleMutation } from '../api/bind-google';
import { GoogleCodeField, VerifyCodeField } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { checkSixDigits } from '../lib/rules';

/** Close-Google page. */
export default function CloseGooglePage() {
  const { t } = useTranslation('security');
  return <SecPage title={t('closeGoogleTitle')}>{(s) => (s.googleBound ? <CloseForm security={s} /> : <EmptyState text={t('googleNotBound')} />)}</SecPage>;
}

function CloseForm({ security }: { security: SecurityInfo }) {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const [googleCode, setGoogleCode] = useState('');
  const [verifyCode, setVerifyCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const close = useGoogleMutation('close');
  const tr = (k: string | null) => (k ? t(k) : null);

  const submit = async () => {
    const e = { googleCode: tr(checkSixDigits(googleCode, 'v.googleRequired')), verifyCode: tr(checkSixDigits(verifyCode, 'v.codeRequired')) };
    setErrors(e);
    if (e.googleCode || e.verifyCode) return;
    const ok = await (
      await loadFeedback()
    ).Dialog.confirm({ content: t('closeGoogleConfirm'), confirmText: t('closeGoogleTitle'), cancelText: t('common:cancel') });
    if (!ok) return;
    try {
      await close.mutateAsync({ googleCode, verifyCode });
      showToast(t('closeGoogleSuccess'));
      navigate('/accountCenter', { replace: true });
    } catch {
      /* toasted */
    }
  };

  return (
    <>
      <NoticeBar className="sec-warn" color="alert" wrap content={t('closeGoogleWarning')} />
      <SecForm onSubmit={() => void submit()}>
        <GoogleCodeField value={googleCode} onChange={setGoogleCode} error={errors.googleCode} />
        <VerifyCodeField security={security} value={verifyCode} onChange={setVerifyCode} error={errors.verifyCode} />
        <Button block color="danger" type="submit" loading={close.isPending}>
          {t('closeGoogleTitle')}
        </Button>
      </SecForm>
    </>
  );
}
