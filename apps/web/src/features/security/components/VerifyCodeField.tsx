/**
 * Fields of the second proof (the server's verifySecondFactor): a VERIFY code sent to the user's own phone or e-mail
 * (no slide puzzle: the address is the user's own; then a 60 s countdown; `channel` picks which when both are bound), and the Google
 * authenticator code. `SecondFactorFields` shows the Google code when Google is bound, else the VERIFY code, as the
 * server asks. The labelled field and the slide puzzle are the shared form parts (shared/forms) of the account
 * screens.
 */
import { useTranslation } from 'react-i18next';
import { Field, SendCodeField } from '../../../shared/forms/fields';
import { sendBindCode, sendVerifyCode } from '../api/send-verify-code';
import type { SecurityInfo } from '../api/contract';
import '../security.css';

/** The VERIFY code to the own account; the hint names where it goes (masked). */
export function VerifyCodeField(props: { security: SecurityInfo | undefined; value: string; onChange: (v: string) => void; error?: string | null }) {
  const { t } = useTranslation('security');
  const s = props.security;
  const channel: 'EMAIL' | 'PHONE' = s?.mail ? 'EMAIL' : 'PHONE';
  const to = channel === 'EMAIL' ? s?.mail : s?.phone ? `+${s.areaCode} ${s.phone}` : '';
  return (
    <>
      <SendCodeField
        label={t('verifyCode')}
        value={props.value}
        onChange={props.onChange}
        error={props.error}
        puzzle={false}
        send={() => sendVerifyCode({ channel })}
      />
      {to && <p className="sec-hint">{t('verifyCodeHint', { to })}</p>}
    </>
  );
}

/** A BIND code to a new address, checked by `validate` first. */
export function BindCodeField(props: {
  account: string;
  areaCode?: string;
  validate: () => boolean;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
}) {
  const { t } = useTranslation('security');
  return (
    <SendCodeField
      label={t('bindCode')}
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      validate={props.validate}
      send={(pass) => sendBindCode({ account: props.account, areaCode: props.areaCode, pass })}
    />
  );
}

/** The Google authenticator's current 6-digit code. */
export function GoogleCodeField(props: { value: string; onChange: (v: string) => void; error?: string | null }) {
  const { t } = useTranslation('security');
  return (
    <Field
      label={t('googleCode')}
      value={props.value}
      onChange={(v) => props.onChange(v.replace(/\D/g, '').slice(0, 6))}
      placeholder={t('googleCodePlaceholder')}
      inputMode="numeric"
      maxLength={6}
      autoComplete="one-time-code"
      error={props.error}
    />
  );
}

/** Values of the second proof, and their errors. */
export interface SecondFactorValue {
  googleCode: string;
  verifyCode: string;
}

/** The Google code when Google is bound, else the VERIFY code (the server's second proof, verifySecondFactor). */
export function SecondFactorFields(props: {
  security: SecurityInfo | undefined;
  value: SecondFactorValue;
  onChange: (v: SecondFactorValue) => void;
  errors: Partial<Record<keyof SecondFactorValue, string | null>>;
}) {
  const { value, onChange } = props;
  if (props.security?.googleBound)
    return <GoogleCodeField value={value.googleCode} onChange={(googleCode) => onChange({ ...value, googleCode })} error={props.errors.googleCode} />;
  return (
    <VerifyCodeField
      security={props.security}
      value={value.verifyCode}
      onChange={(verifyCode) => onChange({ ...value, verifyCode })}
      error={props.errors.verifyCode}
    />
  );
}

/** The fields the server expects for the second proof (only the one in use is sent). */
export function secondFactorParams(security: SecurityInfo | undefined, v: SecondFactorValue): { googleCode?: string; verifyCode?: string } {
  return security?.googleBound ? { googleCode: v.googleCode } : { verifyCode: v.verifyCode };
}
