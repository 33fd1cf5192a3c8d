/**
 * /forget: reset the login password with a code sent to the email or phone (after the slide
 * puzzle); new password 8-20 characters not only digits, confirmation must match.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { AccountCodeField, AccountInputs, AuthForm, NewPasswordFields } from '../components/AuthForm';
import { forgetPassword } from '../api/forget-password';
import { useAccountForm } from '../hooks/use-account-form';

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
