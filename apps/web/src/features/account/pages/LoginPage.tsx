/**
 * /login (spec section 2): email or phone + password; when the server asks for the slide puzzle
 * (errorCode captcha_required / captcha_invalid) the puzzle opens and the login is retried with the
 * pass. When the account has Google authenticator bound the server answers google_code_required once the password
 * checked out: a second step asks for the 6-digit code and logs in with it. On success token, userId and
 * isLogin are stored and the member is fetched. Already logged in, the form is skipped for the redirect query or home.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GeetestResult } from '@exchange/api';
import { isApiError, showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { Field, PasswordField } from '../../../shared/forms/fields';
import { SlideCaptcha } from '../../../shared/forms/SlideCaptcha';
import { AccountInputs, AuthForm } from '../components/AuthForm';
import { login } from '../api/login';
import { useAfterLogin } from '../hooks/use-after-login';
import { useLoggedInAway } from '../hooks/use-logged-in-away';
import { useAccountForm } from '../hooks/use-account-form';
import { checkAccount } from '../../../shared/forms/validation';

/** Login page: the form, or straight on (redirect query or home) when already logged in. */
export default function LoginPage() {
  const away = useLoggedInAway();
  return away ? <Navigate to={away} replace /> : <LoginForm />;
}

/** The login form. */
function LoginForm() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const lastAccount = useAppStore((s) => s.phone);
  const form = useAccountForm<'password'>({ kind: /^\d+$/.test(lastAccount) ? 'PHONE' : 'EMAIL', account: lastAccount });
  const { kind, account, errors } = form;
  const [password, setPassword] = useState('');
  const [captcha, setCaptcha] = useState(false);
  // Second step: the Google authenticator code, asked once the server says it is required.
  const [twoFa, setTwoFa] = useState(false);
  const [googleCode, setGoogleCode] = useState('');
  const [googleError, setGoogleError] = useState<string | null>(null);
  const afterLogin = useAfterLogin();

  const submit = async (pass?: GeetestResult) => {
    const accErr = checkAccount(kind, account, form.areaCode);
    const pwErr = password ? null : 'v.passwordRequired';
    form.setErrors({ account: form.tr(accErr), password: form.tr(pwErr) });
    if (accErr || pwErr) return;
    if (twoFa && !/^\d{6}$/.test(googleCode)) {
      setGoogleError(t(googleCode ? 'v.googleInvalid' : 'v.googleRequired'));
      return;
    }
    setGoogleError(null);
    form.setBusy(true);
    try {
      const session = await login({ account: account.trim(), areaCode: form.phoneAreaCode, password, googleCode: twoFa ? googleCode : undefined, pass }, true);
      showToast(t('loginSuccess'));
      await afterLogin(session, account.trim());
    } catch (e) {
      if (isApiError(e, 'captcha_required') || (isApiError(e, 'captcha_invalid') && !pass)) setCaptcha(true);
      else if (isApiError(e, 'google_code_required')) {
        setTwoFa(true);
        setGoogleCode('');
      } else if (isApiError(e, 'google_code_invalid')) {
        setGoogleCode('');
        setGoogleError(e.message);
      } else if (isApiError(e)) showToast(e.message);
    } finally {
      form.setBusy(false);
    }
  };

  return (
    <AuthForm
      close
      title={t('loginTitle')}
      sub={t('loginSub')}
      onSubmit={() => void submit()}
      after={
        <SlideCaptcha
          visible={captcha}
          onClose={() => setCaptcha(false)}
          onSuccess={(p) => {
            setCaptcha(false);
            void submit(p);
          }}
        />
      }
    >
      {params.get('redirect') && <p className="ex-auth-sub">{t('loginToContinue')}</p>}
      {twoFa ? (
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
      ) : (
        <>
          <AccountInputs form={form} />
          <PasswordField
            label={t('password')}
            value={password}
            onChange={setPassword}
            placeholder={t('passwordPlaceholder')}
            error={errors.password}
            autoComplete="current-password"
          />
        </>
      )}
      <Button block color="primary" type="submit" loading={form.busy}>
        {t('login')}
      </Button>
      {twoFa && (
        <Button block fill="none" onClick={() => setTwoFa(false)}>
          {t('googleStepBack')}
        </Button>
      )}
      <div className="ex-auth-links">
        <Link to="/forget">{t('forgetPassword')}</Link>
        <Link to="/register">{t('toRegister')}</Link>
      </div>
    </AuthForm>
  );
}
