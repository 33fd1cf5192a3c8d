/**
 * /forget: reset the login password with a code sent to the email or phone (after the slide
 * puzzle); new password 8-20 characters not only digits, confirmation must match. A reset ends every session of
 * that account on the server: when it is the account logged in here, the local session is cleared too, so /login
 * shows its form instead of leaving for home with a dead token.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { endSession, showToast } from '../../../shared/api-client';
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

  const submit = async () => {
    const next = form.checkCodeAndNewPassword(code, password, confirm);
    form.setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    form.setBusy(true);
    try {
      await forgetPassword({ account: account.trim(), areaCode: form.phoneAreaCode, code, password, confirmPassword: confirm });
      showToast(t('resetSuccess'));
      if (resetEndsOwnSession(account, useAppStore.getState())) endSession();
      navigate('/login', { replace: true });
    } catch {
      /* toasted */
    } finally {
      form.setBusy(false);
    }
  };

  return (
    <AuthForm title={t('forgetTitle')} sub={t('forgetSub')} noValidate onSubmit={() => void submit()}>
      <AccountInputs form={form} />
      <AccountCodeField form={form} type="FORGET" value={code} onChange={setCode} error={errors.code} />
      <NewPasswordFields label={t('newPassword')} password={password} onPassword={setPassword} confirm={confirm} onConfirm={setConfirm} errors={errors} />
      <Button block color="primary" type="submit" loading={form.busy}>
        {t('resetPassword')}
      </Button>
    </AuthForm>
  );
}
