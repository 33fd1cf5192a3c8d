/**
 * Transaction password (spec sections 5 and 9: exactly 6 digits), as Binance's PIN entry, in steps:
 * - /accountCenter/postPasswordSet: the second proof (Google code when bound, else a VERIFY code), new PIN, confirm;
 * - /accountCenter/postPasswordChange: old PIN, new PIN, confirm;
 * - /accountCenter/postPasswordForget: a VERIFY code (and the Google code when bound), new PIN, confirm.
 * The confirmation submits as soon as its six digits are in; a mismatch starts the new PIN again. A wrong old PIN
 * (trans_password_wrong, trans_password_locked: the server's message says until when) is toasted and cleared.
 */
import { useState } from 'react';
import { Button, Result } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PinInput } from '../../../shared/ui/PinInput';
import type { SecurityInfo } from '../api/contract';
import { useSetTransPassword } from '../api/set-trans-password';
import { useChangeTransPassword } from '../api/change-trans-password';
import { useForgetTransPassword } from '../api/forget-trans-password';
import { GoogleCodeField, SecondFactorFields, VerifyCodeField, secondFactorParams, type SecondFactorValue } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { checkSixDigits } from '../lib/rules';

/** Which of the three pages. */
export type TransPasswordMode = 'set' | 'change' | 'forget';

type Step = 'proof' | 'old' | 'pin' | 'confirm' | 'done';

/** The steps of a mode, in order (done last). */
export function stepsOf(mode: TransPasswordMode): Step[] {
  return mode === 'change' ? ['old', 'pin', 'confirm', 'done'] : ['proof', 'pin', 'confirm', 'done'];
}

/** Page of one mode. */
export function TransPasswordPage({ mode }: { mode: TransPasswordMode }) {
  const { t } = useTranslation('security');
  return <SecPage title={t(`trans.${mode}Title`)}>{(s) => <TransPasswordFlow mode={mode} security={s} />}</SecPage>;
}

function TransPasswordFlow({ mode, security }: { mode: TransPasswordMode; security: SecurityInfo }) {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const steps = stepsOf(mode);
  const [step, setStep] = useState<Step>(steps[0]!);
  const [second, setSecond] = useState<SecondFactorValue>({ googleCode: '', verifyCode: '' });
  const [oldPin, setOldPin] = useState('');
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const set = useSetTransPassword();
  const change = useChangeTransPassword();
  const forget = useForgetTransPassword();
  const busy = set.isPending || change.isPending || forget.isPending;
  const tr = (k: string | null) => (k ? t(k) : null);

  if (mode === 'set' && security.transPasswordSet && step !== 'done') {
    return (
      <Result
        status="info"
        title={t('trans.alreadySet')}
        description={
          <Button color="primary" fill="none" onClick={() => navigate('/accountCenter/postPasswordChange', { replace: true })}>
            {t('trans.changeTitle')}
          </Button>
        }
      />
    );
  }
  if (mode !== 'set' && !security.transPasswordSet) {
    return (
      <Result
        status="info"
        title={t('trans.notSet')}
        description={
          <Button color="primary" fill="none" onClick={() => navigate('/accountCenter/postPasswordSet', { replace: true })}>
            {t('trans.setTitle')}
          </Button>
        }
      />
    );
  }

  const submit = async (confirmPin: string) => {
    if (confirmPin !== pin) {
      setErrors({ pin: t('v.pinMismatch') });
      setPin('');
      setConfirm('');
      setStep('pin');
      return;
    }
    try {
      if (mode === 'set') await set.mutateAsync({ transPassword: pin, confirmTransPassword: confirmPin, ...secondFactorParams(security, second) });
      else if (mode === 'change') await change.mutateAsync({ oldTransPassword: oldPin, transPassword: pin, confirmTransPassword: confirmPin });
      else
        await forget.mutateAsync({
          transPassword: pin,
          confirmTransPassword: confirmPin,
          verifyCode: second.verifyCode,
          googleCode: security.googleBound ? second.googleCode : undefined,
        });
      setStep('done');
    } catch {
      // Toasted. A wrong old PIN or code sends the user back to the first step with the fields cleared.
      setOldPin('');
      setPin('');
      setConfirm('');
      setStep(steps[0]!);
    }
  };

  if (step === 'done') {
    return (
      <div className="sec-done">
        <Result status="success" title={t(`trans.${mode}Success`)} />
        <div className="sec-form">
          <Button block color="primary" onClick={() => (window.history.length > 2 ? navigate(-1) : navigate('/accountCenter', { replace: true }))}>
            {t('common:confirm')}
          </Button>
        </div>
      </div>
    );
  }

  if (step === 'proof') {
    const next = () => {
      const e: Record<string, string | null> =
        mode === 'forget'
          ? {
              verifyCode: tr(checkSixDigits(second.verifyCode, 'v.codeRequired')),
              googleCode: security.googleBound ? tr(checkSixDigits(second.googleCode, 'v.googleRequired')) : null,
            }
          : security.googleBound
            ? { googleCode: tr(checkSixDigits(second.googleCode, 'v.googleRequired')) }
            : { verifyCode: tr(checkSixDigits(second.verifyCode, 'v.codeRequired')) };
      setErrors(e);
      if (!Object.values(e).some(Boolean)) setStep('pin');
    };
    return (
      <SecForm intro={t(`trans.${mode}Intro`)} onSubmit={next}>
        {mode === 'forget' ? (
          <>
            <VerifyCodeField
              security={security}
              value={second.verifyCode}
              onChange={(verifyCode) => setSecond({ ...second, verifyCode })}
              error={errors.verifyCode}
            />
            {security.googleBound && (
              <GoogleCodeField value={second.googleCode} onChange={(googleCode) => setSecond({ ...second, googleCode })} error={errors.googleCode} />
            )}
          </>
        ) : (
          <SecondFactorFields security={security} value={second} onChange={setSecond} errors={errors} />
        )}
        <Button block color="primary" type="submit">
          {t('common:next')}
        </Button>
      </SecForm>
    );
  }

  return (
    <div className="sec-form">
      {step === 'old' && (
        <PinInput
          key="old"
          label={t('trans.old')}
          value={oldPin}
          onChange={setOldPin}
          onFill={() => {
            setErrors({});
            setStep('pin');
          }}
        />
      )}
      {step === 'pin' && (
        <PinInput
          key="pin"
          label={t('trans.new')}
          value={pin}
          onChange={(v) => {
            setPin(v);
            if (v) setErrors({});
          }}
          onFill={() => setStep('confirm')}
          error={errors.pin}
        />
      )}
      {step === 'confirm' && <PinInput key="confirm" label={t('trans.confirm')} value={confirm} onChange={setConfirm} onFill={(v) => void submit(v)} />}
      <p className="sec-hint">{t('trans.rule')}</p>
      {busy && <p className="sec-hint">{t('common:loading')}</p>}
    </div>
  );
}

/** /accountCenter/postPasswordSet. */
export default function PostPasswordSetPage() {
  return <TransPasswordPage mode="set" />;
}
