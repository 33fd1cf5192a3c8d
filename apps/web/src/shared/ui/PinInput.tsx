/**
 * Six-digit PIN entry for the transaction password (spec sections 5 and 9: exactly 6 digits), as Binance's PIN
 * entry: antd-mobile's PasscodeInput (masked cells) with its NumberKeyboard. `PinInput` is the field;
 * `PinPopup` asks for the PIN in a bottom sheet before a protected action (saving a payment method) and calls
 * `onSubmit(pin)` once six digits are in; a rejected submit clears the cells for another try.
 */
import { useEffect, useRef, useState } from 'react';
import { NumberKeyboard, PasscodeInput, Popup, type PasscodeInputRef } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import './pin.css';

/** Length of a transaction password (spec section 9). */
export const PIN_LENGTH = 6;

/** True when `v` is a complete transaction password: exactly six ASCII digits (spec section 5). */
export function isPin(v: string): boolean {
  return /^[0-9]{6}$/.test(v);
}

/** The masked six-cell PIN field with the on-screen number keyboard; `label` names it for screen readers. */
export function PinInput(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  onFill?: (v: string) => void;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const ref = useRef<PasscodeInputRef>(null);
  const { autoFocus = true } = props;
  useEffect(() => {
    // Opens the number keyboard at once, as a PIN screen does.
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <div className="ex-pin">
      <div className="ex-pin-label">{props.label}</div>
      <PasscodeInput
        ref={ref}
        aria-label={props.label}
        length={PIN_LENGTH}
        value={props.value}
        onChange={(v) => props.onChange(v.replace(/\D/g, '').slice(0, PIN_LENGTH))}
        onFill={props.onFill}
        error={!!props.error}
        keyboard={<NumberKeyboard />}
        seperated
        plain={false}
      />
      {props.error && (
        <div className="ex-pin-error" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

/**
 * Bottom sheet asking for the transaction password. `onSubmit` runs when six digits are in; when it rejects
 * (wrong password: the API client has toasted the server's message) the cells clear; when it resolves the sheet
 * closes through `onClose`. `extra` goes under the field (e.g. "Forgot transaction password?").
 */
export function PinPopup(props: {
  visible: boolean;
  title?: string;
  onClose: () => void;
  onSubmit: (pin: string) => Promise<unknown>;
  extra?: React.ReactNode;
}) {
  const { t } = useTranslation('common');
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!props.visible) setPin('');
  }, [props.visible]);
  const fill = (v: string) => {
    if (busy) return;
    setBusy(true);
    props
      .onSubmit(v)
      .then(() => props.onClose())
      .catch(() => setPin(''))
      .finally(() => setBusy(false));
  };
  return (
    <Popup visible={props.visible} onMaskClick={props.onClose} bodyClassName="ex-pin-popup" destroyOnClose>
      <div className="ex-pin-sheet" role="dialog" aria-label={props.title ?? t('pin.title')}>
        <h2 className="ex-pin-title">{props.title ?? t('pin.title')}</h2>
        <PinInput label={t('pin.label')} value={pin} onChange={setPin} onFill={fill} />
        {props.extra}
      </div>
    </Popup>
  );
}
