/**
 * /login (spec section 2): email or phone + password; when the server asks for the slide puzzle
 * (errorCode captcha_required / captcha_invalid) the puzzle opens and the login is retried with the
 * pass. On success token, userId and isLogin are stored and the member is fetched.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GeetestResult } from '@exchange/api';
import { isApiError, showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { AccountField, KindSwitch, PasswordField } from '../components/fields';
import { SlideCaptcha } from '../components/SlideCaptcha';
import { AuthHeader } from '../components/AuthHeader';
import { login } from '../api/login';
import { useAfterLogin } from '../hooks/use-after-login';
import { checkAccount } from '../validation';

/** Login page. */
export default function LoginPage() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const lastAccount = useAppStore((s) => s.phone);
  const storedArea = useAppStore((s) => s.areaCode);
  const setStoredArea = useAppStore((s) => s.setAreaCode);
  const [kind, setKind] = useState<'EMAIL' | 'PHONE'>(/^\d+$/.test(lastAccount) ? 'PHONE' : 'EMAIL');
  const [account, setAccount] = useState(lastAccount);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string | null; password?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState(false);
  const afterLogin = useAfterLogin();

  const submit = async (pass?: GeetestResult) => {
    const accErr = checkAccount(kind, account);
    const pwErr = password ? null : 'v.passwordRequired';
    setErrors({ account: accErr && t(accErr), password: pwErr && t(pwErr) });
    if (accErr || pwErr) return;
    setBusy(true);
    try {
      const session = await login({ account: account.trim(), areaCode: kind === 'PHONE' ? storedArea : undefined, password, pass }, true);
      showToast(t('loginSuccess'));
      await afterLogin(session, account.trim());
    } catch (e) {
      if (isApiError(e, 'captcha_required') || (isApiError(e, 'captcha_invalid') && !pass)) setCaptcha(true);
      else if (isApiError(e)) showToast(e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <AuthHeader close />
      <form
        className="ex-auth"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h1 className="ex-auth-title">{t('loginTitle')}</h1>
        <p className="ex-auth-sub">{t('loginSub')}</p>
        {params.get('redirect') && <p className="ex-auth-sub">{t('loginToContinue')}</p>}
        <KindSwitch
          value={kind}
          onChange={(k) => {
            setKind(k);
            setAccount('');
            setErrors({});
          }}
        />
        <AccountField kind={kind} value={account} onChange={setAccount} areaCode={storedArea} onAreaCode={setStoredArea} error={errors.account} />
        <PasswordField label={t('password')} value={password} onChange={setPassword} placeholder={t('passwordPlaceholder')} error={errors.password} autoComplete="current-password" />
        <Button block color="primary" type="submit" loading={busy}>
          {t('login')}
        </Button>
        <div className="ex-auth-links">
          <Link to="/forget">{t('forgetPassword')}</Link>
          <Link to="/register">{t('toRegister')}</Link>
        </div>
      </form>
      <SlideCaptcha
        visible={captcha}
        onClose={() => setCaptcha(false)}
        onSuccess={(p) => {
          setCaptcha(false);
          void submit(p);
        }}
      />
    </div>
  );
}
