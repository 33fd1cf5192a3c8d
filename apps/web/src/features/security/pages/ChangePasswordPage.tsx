/**
 * /accountCenter/change: old password, new password (8-20 characters, not only digits, spec section 5)
 * and its confirmation, plus the second proof (Google code when bound, else a VERIFY code). The server ends the
 * other sessions and locks withdrawals for 24 h (spec section 9); after success the page shows that lock and its end
 * time.
 */
import { useState } from 'react';
import { Button, Result } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../shared/forms/fields';
import { useChangePassword } from '../api/change-password';
import { useSecurity } from '../api/get-security';
import type { SecurityInfo } from '../api/contract';
import { SecondFactorFields, secondFactorParams, type SecondFactorValue } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { WithdrawLockBanner } from '../components/WithdrawLockBanner';
import { checkLoginPassword, checkSixDigits } from '../lib/rules';

/** Change-password page. */
export default function ChangePasswordPage() {
  const { t } = useTranslation('security');
  return <SecPage title={t('changeTitle')}>{(s) => <ChangeForm security={s} />}</SecPage>;
}

function ChangeForm({ security }: { security: SecurityInfo }) {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [second, setSecond] = useState<SecondFactorValue>({ googleCode: '', verifyCode: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [done, setDone] = useState(false);
  const change = useChangePassword();
  const fresh = useSecurity();
  const tr = (k: string | null) => (k ? t(k) : null);

  if (done) {
    return (
      <div className="sec-done">
        <Result status="success" title={t('changeSuccess')} description={t('changeSuccessHint')} />
        <WithdrawLockBanner lock={fresh.data?.withdrawLock} />
        <div className="sec-form">
          <Button block color="primary" onClick={() => navigate('/accountCenter', { replace: true })}>
            {t('backToCentre')}
          </Button>
        </div>
      </div>
    );
  }

  const submit = async () => {
    const next = {
      oldPassword: oldPassword ? null : t('v.oldRequired'),
      password: tr(checkLoginPassword(password)) ?? (password === oldPassword ? t('v.sameAsOld') : null),
      confirm: !confirm ? t('v.confirmRequired') : confirm === password ? null : t('v.confirmMismatch'),
      googleCode: security.googleBound ? tr(checkSixDigits(second.googleCode, 'v.googleRequired')) : null,
      verifyCode: security.googleBound ? null : tr(checkSixDigits(second.verifyCode, 'v.codeRequired')),
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    try {
      await change.mutateAsync({ oldPassword, password, confirmPassword: confirm, ...secondFactorParams(security, second) });
      setDone(true);
    } catch {
      /* toasted */
    }
  };

  return (
    <SecForm intro={t('changeIntro')} onSubmit={() => void submit()}>
      <PasswordField label={t('oldPassword')} value={oldPassword} onChange={setOld} error={errors.oldPassword} autoComplete="current-password" />
      <PasswordField
        label={t('newPassword')}
        value={password}
        onChange={setPassword}
        placeholder={t('passwordRule')}
        error={errors.password}
        autoComplete="new-password"
      />
      <PasswordField label={t('confirmPassword')} value={confirm} onChange={setConfirm} error={errors.confirm} autoComplete="new-password" />
      <SecondFactorFields security={security} value={second} onChange={setSecond} errors={errors} />
      <Button block color="primary" type="submit" loading={change.isPending}>
        {t('confirmChange')}
      </Button>
    </SecForm>
  );
}
