/**
 * /accountCenter/bind and /accountCenter/bindSecond: bind the phone or e-mail the account lacks. The new
 * address gets a BIND code (slide puzzle first); the existing account proves it is the user with a VERIFY code, or
 * the Google code when Google is bound. `?type=PHONE|EMAIL` picks the kind; without it, the missing one. An already
 * bound kind cannot be changed here (the server refuses account_already_bound), so the page says so.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { EmptyState } from '../../../shared/ui';
import { AccountField } from '../../../shared/forms/fields';
import { checkAccount } from '../../../shared/forms/validation';
import type { SecurityInfo } from '../api/contract';
import { useBindAccount } from '../api/bind-account';
import { BindCodeField, SecondFactorFields, secondFactorParams, type SecondFactorValue } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { checkSixDigits } from '../lib/rules';

/** Bind page (both routes). */
export default function BindPage() {
  const { t } = useTranslation('security');
  const [params] = useSearchParams();
  const asked = params.get('type');
  return (
    <SecPage title={t('bindTitle')}>
      {(s) => {
        const kind: 'PHONE' | 'EMAIL' = asked === 'PHONE' || asked === 'EMAIL' ? asked : s.phone ? 'EMAIL' : 'PHONE';
        const bound = kind === 'PHONE' ? !!s.phone : !!s.mail;
        if (bound) return <EmptyState text={t('alreadyBound')} />;
        return <BindForm kind={kind} security={s} />;
      }}
    </SecPage>
  );
}

function BindForm({ kind, security }: { kind: 'PHONE' | 'EMAIL'; security: SecurityInfo }) {
  const { t } = useTranslation('security');
  const { t: ta } = useTranslation('account');
  const navigate = useNavigate();
  const areaCode = useAppStore((s) => s.areaCode);
  const setAreaCode = useAppStore((s) => s.setAreaCode);
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [second, setSecond] = useState<SecondFactorValue>({ googleCode: '', verifyCode: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const bind = useBindAccount();

  const accountError = () => {
    const e = checkAccount(kind, account, areaCode);
    return e ? ta(e, { code: areaCode }) : null;
  };
  const validateAccount = () => {
    const e = accountError();
    setErrors((x) => ({ ...x, account: e }));
    return !e;
  };
  const submit = async () => {
    const next = {
      account: accountError(),
      code: t(checkSixDigits(code, 'v.codeRequired') ?? '') || null,
      googleCode: security.googleBound ? t(checkSixDigits(second.googleCode, 'v.googleRequired') ?? '') || null : null,
      verifyCode: security.googleBound ? null : t(checkSixDigits(second.verifyCode, 'v.codeRequired') ?? '') || null,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    try {
      const proof = secondFactorParams(security, second);
      await bind.mutateAsync(
        kind === 'PHONE' ? { bindType: 'PHONE', phone: account, areaCode, code, ...proof } : { bindType: 'EMAIL', mail: account.trim(), code, ...proof },
      );
      showToast(t('bindSuccess'));
      navigate('/accountCenter', { replace: true });
    } catch {
      /* toasted */
    }
  };

  return (
    <SecForm intro={t(kind === 'PHONE' ? 'bindPhoneIntro' : 'bindEmailIntro')} onSubmit={() => void submit()}>
      <AccountField kind={kind} value={account} onChange={setAccount} areaCode={areaCode} onAreaCode={setAreaCode} error={errors.account} />
      <BindCodeField
        account={account.trim()}
        areaCode={kind === 'PHONE' ? areaCode : undefined}
        validate={validateAccount}
        value={code}
        onChange={setCode}
        error={errors.code}
      />
      <SecondFactorFields security={security} value={second} onChange={setSecond} errors={errors} />
      <Button block color="primary" type="submit" loading={bind.isPending}>
        {t('bind')}
      </Button>
    </SecForm>
  );
}
