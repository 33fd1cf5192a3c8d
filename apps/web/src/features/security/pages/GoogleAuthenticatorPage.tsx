/**
 * /accountCenter/googleAuthenticator: step 1 the QR code of the pending secret (otpauth:// URL) and the
 * key in base32 with copy, for an authenticator app; step 2 the app's current 6-digit code plus a VERIFY code to
 * the own account. Once bound, login asks for the code (LoginPage's second step).
 */
import { useState } from 'react';
import { Button, Result, Steps } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { copyText } from '../../../shared/clipboard';
import type { SecurityInfo } from '../api/contract';
import { useGoogleSecret } from '../api/google-secret';
import { useGoogleMutation } from '../api/bind-google';
import { GoogleCodeField, VerifyCodeField } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { QrCode } from '../../../shared/ui/QrCode';
import { checkSixDigits } from '../lib/rules';

/** Google authenticator binding page. */
export default function GoogleAuthenticatorPage() {
  const { t } = useTranslation('security');
  return <SecPage title={t('google')}>{(s) => (s.googleBound ? <AlreadyBound /> : <BindGoogle security={s} />)}</SecPage>;
}

function AlreadyBound() {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  return (
    <Result
      status="success"
      title={t('googleBoundAlready')}
      description={
        <Button color="primary" fill="none" onClick={() => navigate('/accountCenter/closeGoogle', { replace: true })}>
          {t('closeGoogleTitle')}
        </Button>
      }
    />
  );
}

function BindGoogle({ security }: { security: SecurityInfo }) {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [googleCode, setGoogleCode] = useState('');
  const [verifyCode, setVerifyCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const secret = useGoogleSecret(true);
  const bind = useGoogleMutation('bind');
  const tr = (k: string | null) => (k ? t(k) : null);

  const submit = async () => {
    const e = { googleCode: tr(checkSixDigits(googleCode, 'v.googleRequired')), verifyCode: tr(checkSixDigits(verifyCode, 'v.codeRequired')) };
    setErrors(e);
    if (e.googleCode || e.verifyCode) return;
    try {
      await bind.mutateAsync({ googleCode, verifyCode });
      showToast(t('googleBindSuccess'));
      navigate('/accountCenter', { replace: true });
    } catch {
      /* toasted */
    }
  };

  return (
    <>
      <Steps current={step} className="sec-steps">
        <Steps.Step title={t('googleStep1')} />
        <Steps.Step title={t('googleStep2')} />
      </Steps>
      {step === 0 ? (
        <div className="sec-form">
          <p className="sec-intro">{t('googleScan')}</p>
          {secret.isLoading && <InlineLoading />}
          {secret.isError && <LoadFailed error={secret.error} onRetry={() => void secret.refetch()} />}
          {secret.data && (
            <>
              <QrCode className="sec-qr" text={secret.data.otpauthUrl} size={168} margin={1} label={t('googleQr')} />
              <div className="sec-key">
                <div className="sec-key-label">{t('googleKey')}</div>
                <div className="sec-key-row">
                  <code className="sec-key-value num" data-testid="google-secret">
                    {secret.data.secret}
                  </code>
                  <Button
                    size="small"
                    onClick={() => void copyText(secret.data.secret).then((ok) => showToast(ok ? t('common:copied') : t('common:copyFailed')))}
                  >
                    {t('common:copy')}
                  </Button>
                </div>
                <p className="sec-hint">{t('googleKeyHint')}</p>
              </div>
              <Button block color="primary" onClick={() => setStep(1)}>
                {t('common:next')}
              </Button>
            </>
          )}
        </div>
      ) : (
        <SecForm intro={t('googleEnter')} onSubmit={() => void submit()}>
          <GoogleCodeField value={googleCode} onChange={setGoogleCode} error={errors.googleCode} />
          <VerifyCodeField security={security} value={verifyCode} onChange={setVerifyCode} error={errors.verifyCode} />
          <Button block color="primary" type="submit" loading={bind.isPending}>
            {t('googleBind')}
          </Button>
          <Button block fill="none" onClick={() => setStep(0)}>
            {t('googleBackToKey')}
          </Button>
        </SecForm>
      )}
    </>
  );
}
