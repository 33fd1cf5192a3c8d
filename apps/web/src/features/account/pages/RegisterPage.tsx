/**
 * /register (spec sections 2 and 5): email or phone (country code default 86), 6-digit code sent
 * after the slide puzzle, password 8-20 characters not only digits, confirmation, optional
 * invitation code (prefilled from ?code= or ?invitationCode=), agreement checkbox linking
 * /agreement and /aboutAgreement. On success the session is stored and the nickname dialog opens.
 * In demo mode the page (last, under the form: its late arrival moves no field) and the success toast say how
 * much demo USDT a new account gets (the figure from GET demo/info, i.e. the server's faucet). Already logged in, the form is skipped.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { GiftOutline } from 'antd-mobile-icons';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { formatFixed } from '../../../shared/format';
import { useUiStore } from '../../../shared/storage';
import { Field } from '../../../shared/forms/fields';
import { AccountCodeField, AccountInputs, AuthForm, NewPasswordFields } from '../components/AuthForm';
import { register } from '../api/register';
import { useWelcomeUsdt } from '../api/demo-info';
import { useAfterLogin } from '../hooks/use-after-login';
import { useLoggedInAway } from '../hooks/use-logged-in-away';
import { useAccountForm } from '../hooks/use-account-form';

/** Registration page: the form, or straight on (redirect query or home) when already logged in. */
export default function RegisterPage() {
  const away = useLoggedInAway();
  return away ? <Navigate to={away} replace /> : <RegisterForm />;
}

/** The sign-up form. */
function RegisterForm() {
  const { t } = useTranslation('account');
  const welcomeUsdt = useWelcomeUsdt();
  const welcome = welcomeUsdt ? formatFixed(welcomeUsdt, 0, { group: true }) : null;
  const [params] = useSearchParams();
  const form = useAccountForm<'code' | 'password' | 'confirm' | 'agree'>();
  const { kind, account, areaCode, errors } = form;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invite, setInvite] = useState(params.get('code') ?? params.get('invitationCode') ?? '');
  const [agree, setAgree] = useState(false);
  const afterLogin = useAfterLogin();

  const submit = async () => {
    const next = { ...form.checkCodeAndNewPassword(code, password, confirm), agree: agree ? null : t('v.agreementRequired') };
    form.setErrors(next);
    const first = Object.values(next).find(Boolean);
    if (first) {
      if (!agree && !next.account && !next.code && !next.password && !next.confirm) showToast(first);
      return;
    }
    form.setBusy(true);
    try {
      const session = await register({
        registerType: kind,
        account: account.trim(),
        areaCode,
        code,
        password,
        confirmPassword: confirm,
        invitationCode: invite.trim(),
      });
      showToast(welcome ? t('registerSuccessDemo', { amount: welcome }) : t('registerSuccess'));
      await afterLogin(session, account.trim()); // to ?redirect= (the trade screen's Sign up) or home
      useUiStore.getState().openNicknameDialog();
    } catch {
      /* toasted */
    } finally {
      form.setBusy(false);
    }
  };

  return (
    <AuthForm title={t('registerTitle')} sub={t('registerSub')} noValidate onSubmit={() => void submit()}>
      <AccountInputs form={form} />
      <AccountCodeField form={form} type="REGISTER" value={code} onChange={setCode} error={errors.code} />
      <NewPasswordFields label={t('password')} password={password} onPassword={setPassword} confirm={confirm} onConfirm={setConfirm} errors={errors} />
      <Field label={t('invitationCode')} value={invite} onChange={setInvite} placeholder={t('invitationOptional')} maxLength={32} />
      <div className="ex-agree">
        <input type="checkbox" className="ex-check" checked={agree} onChange={(e) => setAgree(e.target.checked)} aria-label={t('agreeLabel')} />
        <span>
          {t('agreePrefix')} <Link to="/agreement">{t('userAgreement')}</Link> {t('and')} <Link to="/aboutAgreement">{t('privacyPolicy')}</Link>
        </span>
      </div>
      {errors.agree && (
        <div className="ex-field-error" role="alert">
          {errors.agree}
        </div>
      )}
      <Button block color="primary" type="submit" loading={form.busy}>
        {t('register')}
      </Button>
      <div className="ex-auth-links">
        <span className="text-2">{t('haveAccount')}</span>
        <Link to="/login">{t('login')}</Link>
      </div>
      {/* Last on the page: the demo figure arrives after the form is drawn (GET demo/info), and at the top it
          pushed every field down by its height while the user was about to tap; here nothing moves. */}
      {welcome && (
        <p className="ex-auth-gift end" data-testid="welcome-usdt">
          <GiftOutline aria-hidden="true" fontSize={16} />
          <span>{t('welcomeUsdt', { amount: welcome })}</span>
        </p>
      )}
    </AuthForm>
  );
}
