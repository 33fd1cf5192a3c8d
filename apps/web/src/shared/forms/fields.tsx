/**
 * Form fields of the account screens, shared with the account centre, identity verification and payment methods
 * (moved here from features/account so that features do not import each other): labelled inputs (so
 * journeys can select by label), the email/phone switch, the phone input with its area-code picker, the password
 * input with a show/hide toggle, and the "Send code" button that runs the slide puzzle first and then counts down
 * 60 s.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Input, Popup } from 'antd-mobile';
import { DownFill, EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { GeetestResult } from '@exchange/api';
import { TOAST_MS } from '../api-client';
import { showTimedToast } from '../ui/feedback';
import { SlideCaptcha } from './SlideCaptcha';
import { CountryPicker } from './CountryPicker';
import { sendCode, type CodeType } from './send-code';
import './fields.css';

/** Seconds before another code can be requested. */
export const CODE_COUNTDOWN_S = 60;

/** A labelled text field. */
export function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  type?: string;
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'tel';
  maxLength?: number;
  prefix?: ReactNode;
  suffix?: ReactNode;
  autoComplete?: string;
  error?: string | null;
}) {
  const id = useId();
  return (
    <div className="ex-field">
      <label className="ex-field-label" htmlFor={id}>
        {props.label}
      </label>
      <div className={`ex-field-box${props.error ? ' has-error' : ''}`}>
        {props.prefix}
        <Input
          id={id}
          value={props.value}
          onChange={props.onChange}
          placeholder={props.placeholder}
          type={props.type}
          inputMode={props.inputMode}
          maxLength={props.maxLength}
          autoComplete={props.autoComplete}
          clearable
        />
        {props.suffix}
      </div>
      {props.error && (
        <div className="ex-field-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

/** Password field with a show/hide eye. */
export function PasswordField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  placeholder?: string;
  error?: string | null;
  autoComplete?: string;
}) {
  const { t } = useTranslation('account');
  const [shown, setShown] = useState(false);
  return (
    <Field
      {...props}
      type={shown ? 'text' : 'password'}
      maxLength={20}
      suffix={
        <button type="button" className="ex-icon-btn" aria-label={shown ? t('hidePassword') : t('showPassword')} onClick={() => setShown((s) => !s)}>
          {shown ? <EyeOutline /> : <EyeInvisibleOutline />}
        </button>
      }
    />
  );
}

/** Email / phone switch. */
export function KindSwitch({ value, onChange }: { value: 'EMAIL' | 'PHONE'; onChange: (k: 'EMAIL' | 'PHONE') => void }) {
  const { t } = useTranslation('account');
  return (
    <div className="ex-kind-switch" role="tablist">
      {(['EMAIL', 'PHONE'] as const).map((k) => (
        <button key={k} type="button" role="tab" aria-selected={value === k} className={value === k ? 'active' : ''} onClick={() => onChange(k)}>
          {k === 'EMAIL' ? t('email') : t('phone')}
        </button>
      ))}
    </div>
  );
}

/** Email or phone input; for phones an area-code button opens the country picker. */
export function AccountField(props: {
  kind: 'EMAIL' | 'PHONE';
  value: string;
  onChange: (v: string) => void;
  areaCode: string;
  onAreaCode: (c: string) => void;
  error?: string | null;
}) {
  const { t } = useTranslation('account');
  const [picking, setPicking] = useState(false);
  const isPhone = props.kind === 'PHONE';
  return (
    <>
      <Field
        label={isPhone ? t('phone') : t('email')}
        value={props.value}
        onChange={(v) => props.onChange(isPhone ? v.replace(/\D/g, '') : v.trim())}
        placeholder={isPhone ? t('phonePlaceholder') : t('emailPlaceholder')}
        inputMode={isPhone ? 'tel' : 'email'}
        maxLength={isPhone ? 15 : 100}
        autoComplete={isPhone ? 'tel-national' : 'email'}
        error={props.error}
        prefix={
          isPhone ? (
            <button type="button" className="ex-area-btn" aria-label={t('area.title')} onClick={() => setPicking(true)}>
              +{props.areaCode} <DownFill fontSize={10} />
            </button>
          ) : undefined
        }
      />
      <Popup visible={picking} onMaskClick={() => setPicking(false)} bodyStyle={{ height: '70vh', overflowY: 'auto', borderRadius: '16px 16px 0 0' }}>
        <CountryPicker
          value={props.areaCode}
          onPick={(c) => {
            props.onAreaCode(c);
            setPicking(false);
          }}
        />
      </Popup>
    </>
  );
}

/**
 * A 6-digit code field whose "Send code" button runs `validate()` (when given; false stops), then the slide
 * puzzle, then `send(pass)`, then a 60 s countdown. Send errors are toasted by the API client.
 *
 * `puzzle: false` skips the puzzle (`send(undefined)`): for a code to the signed-in user's own proven address (the
 * server's VERIFY type), where a bot gains nothing and the server asks for none. Codes to an address not yet proven
 * (sign-up, log-in, reset, binding a new address) keep the puzzle.
 */
export function SendCodeField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  send: (pass: GeetestResult | undefined) => Promise<unknown>;
  validate?: () => boolean;
  error?: string | null;
  puzzle?: boolean;
}) {
  const { t } = useTranslation('account');
  const [captcha, setCaptcha] = useState(false);
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const onPass = async (pass: GeetestResult | undefined) => {
    setCaptcha(false);
    setSending(true);
    try {
      await props.send(pass);
      showTimedToast({ icon: 'success', content: t('codeSent') }, TOAST_MS);
      setLeft(CODE_COUNTDOWN_S);
    } catch {
      /* toasted by the API client */
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Field
        label={props.label}
        value={props.value}
        onChange={(v) => props.onChange(v.replace(/\D/g, '').slice(0, 6))}
        placeholder={t('codePlaceholder')}
        inputMode="numeric"
        maxLength={6}
        autoComplete="one-time-code"
        error={props.error}
        suffix={
          <button
            type="button"
            className="ex-send-btn"
            disabled={left > 0 || sending}
            onClick={() => {
              if (props.validate && !props.validate()) return;
              if (props.puzzle === false) void onPass(undefined);
              else setCaptcha(true);
            }}
          >
            {left > 0 ? t('resendIn', { s: left }) : t('sendCode')}
          </button>
        }
      />
      <SlideCaptcha visible={captcha} onClose={() => setCaptcha(false)} onSuccess={(p) => void onPass(p)} />
    </>
  );
}

/**
 * Verification-code field of sign-up and reset: `validate()` checks the account first (returns false to stop);
 * then the slide puzzle; then data/sms/sendCode of `type` to `account`; then a 60 s countdown.
 */
export function CodeField(props: {
  value: string;
  onChange: (v: string) => void;
  account: string;
  areaCode?: string;
  type: CodeType;
  validate: () => boolean;
  error?: string | null;
}) {
  const { t } = useTranslation('account');
  return (
    <SendCodeField
      label={t('code')}
      value={props.value}
      onChange={props.onChange}
      validate={props.validate}
      error={props.error}
      send={(pass) => sendCode({ account: props.account, areaCode: props.areaCode, type: props.type, pass })}
    />
  );
}
