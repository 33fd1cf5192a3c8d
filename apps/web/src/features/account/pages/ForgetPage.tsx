/**
 * /forget: reset the login password with a code sent to the email or phone (after the slide
 * puzzle); new password 8-20 characters not only digits, confirmation must match.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { AccountField, CodeField, KindSwitch, PasswordField } from '../components/fields';
import { AuthHeader } from '../components/AuthHeader';
import { forgetPassword } from '../api/forget-password';
import { checkAccount, checkCode, checkConfirm, checkPassword } from '../validation';

type Errors = Partial<Record<'account' | 'code' | 'password' | 'confirm', string | null>>;

/** Password reset page. */
export default function ForgetPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const areaCode = useAppStore((s) => s.areaCode);
  const setAreaCode = useAppStore((s) => s.setAreaCode);
  const [kind, setKind] = useState<'EMAIL' | 'PHONE'>('EMAIL');
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const tr = (k: string | null) => (k ? t(k) : null);

  const submit = async () => {
    const next: Errors = {
      account: tr(checkAccount(kind, account)),
      code: tr(checkCode(code)),
      password: tr(checkPassword(password)),
      confirm: tr(checkConfirm(password, confirm)),
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    try {
      await forgetPassword({ account: account.trim(), areaCode: kind === 'PHONE' ? areaCode : undefined, code, password, confirmPassword: confirm });
      showToast(t('resetSuccess'));
      navigate('/login', { replace: true });
    } catch {
      /* toasted */
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <AuthHeader />
      <form
        className="ex-auth"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h1 className="ex-auth-title">{t('forgetTitle')}</h1>
        <p className="ex-auth-sub">{t('forgetSub')}</p>
        <KindSwitch
          value={kind}
          onChange={(k) => {
            setKind(k);
            setAccount('');
            setErrors({});
          }}
        />
        <AccountField kind={kind} value={account} onChange={setAccount} areaCode={areaCode} onAreaCode={setAreaCode} error={errors.account} />
        <CodeField
          value={code}
          onChange={setCode}
          account={account.trim()}
          areaCode={kind === 'PHONE' ? areaCode : undefined}
          type="FORGET"
          validate={() => {
            const e = checkAccount(kind, account);
            setErrors((x) => ({ ...x, account: tr(e) }));
            return !e;
          }}
          error={errors.code}
        />
        <PasswordField label={t('newPassword')} value={password} onChange={setPassword} placeholder={t('passwordRule')} error={errors.password} autoComplete="new-password" />
        <PasswordField label={t('confirmPassword')} value={confirm} onChange={setConfirm} placeholder={t('confirmPlaceholder')} error={errors.confirm} autoComplete="new-password" />
        <Button block color="primary" type="submit" loading={busy}>
          {t('resetPassword')}
        </Button>
      </form>
    </div>
  );
}
