/**
 * /register (spec sections 2 and 5): email or phone (country code default 86), 6-digit code sent
 * after the slide puzzle, password 8-20 characters not only digits, confirmation, optional
 * invitation code (prefilled from ?code= or ?invitationCode=), agreement checkbox linking
 * /agreement and /aboutAgreement. On success the session is stored and the nickname dialog opens.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useAppStore, useUiStore } from '../../../shared/storage';
import { AccountField, CodeField, Field, KindSwitch, PasswordField } from '../components/fields';
import { AuthHeader } from '../components/AuthHeader';
import { register } from '../api/register';
import { useAfterLogin } from '../hooks/use-after-login';
import { checkAccount, checkCode, checkConfirm, checkPassword } from '../validation';

type Errors = Partial<Record<'account' | 'code' | 'password' | 'confirm' | 'agree', string | null>>;

/** Registration page. */
export default function RegisterPage() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const areaCode = useAppStore((s) => s.areaCode);
  const setAreaCode = useAppStore((s) => s.setAreaCode);
  const [kind, setKind] = useState<'EMAIL' | 'PHONE'>('EMAIL');
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [invite, setInvite] = useState(params.get('code') ?? params.get('invitationCode') ?? '');
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const afterLogin = useAfterLogin();
  const tr = (k: string | null) => (k ? t(k) : null);

  const validateAccount = () => {
    const e = checkAccount(kind, account);
    setErrors((x) => ({ ...x, account: tr(e) }));
    return !e;
  };

  const submit = async () => {
    const next: Errors = {
      account: tr(checkAccount(kind, account)),
      code: tr(checkCode(code)),
      password: tr(checkPassword(password)),
      confirm: tr(checkConfirm(password, confirm)),
      agree: agree ? null : t('v.agreementRequired'),
    };
    setErrors(next);
    const first = Object.values(next).find(Boolean);
    if (first) {
      if (!agree && !next.account && !next.code && !next.password && !next.confirm) showToast(first);
      return;
    }
    setBusy(true);
    try {
      const session = await register({ registerType: kind, account: account.trim(), areaCode, code, password, confirmPassword: confirm, invitationCode: invite.trim() });
      showToast(t('registerSuccess'));
      await afterLogin(session, account.trim(), { to: '/' });
      useUiStore.getState().openNicknameDialog();
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
        <h1 className="ex-auth-title">{t('registerTitle')}</h1>
        <p className="ex-auth-sub">{t('registerSub')}</p>
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
          type="REGISTER"
          validate={validateAccount}
          error={errors.code}
        />
        <PasswordField label={t('password')} value={password} onChange={setPassword} placeholder={t('passwordRule')} error={errors.password} autoComplete="new-password" />
        <PasswordField label={t('confirmPassword')} value={confirm} onChange={setConfirm} placeholder={t('confirmPlaceholder')} error={errors.confirm} autoComplete="new-password" />
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
        <Button block color="primary" type="submit" loading={busy}>
          {t('register')}
        </Button>
        <div className="ex-auth-links">
          <span className="text-2">{t('haveAccount')}</span>
          <Link to="/login">{t('login')}</Link>
        </div>
      </form>
    </div>
  );
}
