/**
 * /forget: reset the login password with a code sent to the email or phone (after the slide
 * puzzle); new password 8-20 characters not only digits, confirmation must match. A reset ends every session of
 * that account on the server: when it is the account logged in here, the local session is cleared too, so /login
 * shows its form instead of leaving for home with a dead token. An account with Google authenticator bound needs its
 * code too (the server answers google_code_required, the e-mail code staying live): the Google code field appears
 * under the others and the reset is sent again with both.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { endSession, isApiError, showToast } from '../../../shared/api-client';
import { Field } from '../../../shared/forms/fields';
import { useAppStore } from '../../../shared/storage';
import { AccountCodeField, AccountInputs, AuthForm, NewPasswordFields } from '../components/AuthForm';
import { forgetPassword } from '../api/forget-password';
import { useAccountForm } from '../hooks/use-account-form';

/**
 * True when a password reset of `account` ends the session held here: logged in, and the stored account (`phone`,
 * the login account of spec section 3) is the same, ignoring case and surrounding spaces.
 */
export function resetEndsOwnSession(account: string, state: { isLogin: boolean; phone: string }): boolean {
  return state.isLogin && state.phone.trim().toLowerCase() === account.trim().toLowerCase() && account.trim() !== '';
}

/** Password reset page. */
export default function ForgetPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const form = useAccountForm<'code' | 'password' | 'confirm'>();
  const { account, errors } = form;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  // Asked for once the server says the account has Google authenticator bound.
  const [twoFa, setTwoFa] = useState(false);
  const [googleCode, setGoogleCode] = useState('');
  const [googleError, setGoogleError] = useState<string | null>(null);

  const submit = async () => {
    const next = form.checkCodeAndNewPassword(code, password, confirm);
    form.setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    if (twoFa && !/^\d{6}$/.test(googleCode)) {
      setGoogleError(t(googleCode ? 'v.googleInvalid' : 'v.googleRequired'));
      return;
    }
    setGoogleError(null);
    form.setBusy(true);
    try {
      await forgetPassword(
        { account: account.trim(), areaCode: form.phoneAreaCode, code, password, confirmPassword: confirm, ...(twoFa ? { googleCode } : {}) },
        true,
      );
      showToast(t('resetSuccess'));
      if (resetEndsOwnSession(account, useAppStore.getState())) endSession();
      navigate('/login', { replace: true });
    } catch (e) {
      if (isApiError(e, 'google_code_required')) {
        setTwoFa(true);
        setGoogleCode('');
      } else if (isApiError(e, 'google_code_invalid') || isApiError(e, 'google_code_locked')) {
        setGoogleCode('');
        setGoogleError(e.message);
      } else if (isApiError(e)) showToast(e.message);
    } finally {
      form.setBusy(false);
    }
  };

  return (
    <AuthForm title={t('forgetTitle')} sub={t('forgetSub')} noValidate onSubmit={() => void submit()}>
      <AccountInputs form={form} />
      <AccountCodeField form={form} type="FORGET" value={code} onChange={setCode} error={errors.code} />
      <NewPasswordFields label={t('newPassword')} password={password} onPassword={setPassword} confirm={confirm} onConfirm={setConfirm} errors={errors} />
      {twoFa && (
        <>
          <p className="ex-auth-sub">{t('googleStepHint')}</p>
          <Field
            label={t('googleCode')}
            value={googleCode}
            onChange={(v) => setGoogleCode(v.replace(/\D/g, '').slice(0, 6))}
            placeholder={t('codePlaceholder')}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            error={googleError}
          />
        </>
      )}
      <Button block color="primary" type="submit" loading={form.busy}>
        {t('resetPassword')}
      </Button>
    </AuthForm>
  );
}
