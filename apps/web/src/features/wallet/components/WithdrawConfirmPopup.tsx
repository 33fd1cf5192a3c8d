/**
 * The withdrawal's security check as a bottom sheet (transaction password, plus the TOTP code if bound,
 * plus an email or phone code): a summary (network, address, amount, fee, receive), the 6-digit transaction password (PIN
 * cells), the e-mail or SMS code of type VERIFY (slide puzzle, then a 60 s countdown) and the Google code when bound.
 * Each field must be 6 digits before `onConfirm` runs; a rejected confirm keeps the sheet open (the API client has
 * toasted the server's message) and clears the PIN.
 */
import { useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatCoin } from '../../../shared/format';
import { Field, SendCodeField } from '../../../shared/forms/fields';
import { PinInput, isPin } from '../../../shared/ui/PinInput';
import type { WithdrawInfo } from '../api/get-withdraw-info';
import { sendWithdrawCode } from '../api/send-verify-code';

/** The codes the sheet collects. */
export interface WithdrawProofs {
  transPassword: string;
  code: string;
  googleCode?: string;
}

const SIX = /^\d{6}$/;

/** The sheet. */
export function WithdrawConfirmPopup(props: {
  visible: boolean;
  info: WithdrawInfo;
  /** `network` is the network's display name */
  summary: { network: string; address: string; amount: string; fee: string; receive: string };
  onClose: () => void;
  onConfirm: (p: WithdrawProofs) => Promise<unknown>;
}) {
  const { t } = useTranslation('wallet');
  const { info, summary } = props;
  const [pin, setPin] = useState('');
  const [code, setCode] = useState('');
  const [google, setGoogle] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [busy, setBusy] = useState(false);
  const channel = info.codeChannel === 'phone' ? 'phone' : 'mail';

  const confirm = async () => {
    const next = {
      pin: isPin(pin) ? null : t('v.pin'),
      code: SIX.test(code) ? null : t('v.code'),
      google: !info.googleBound || SIX.test(google) ? null : t('v.google'),
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    try {
      await props.onConfirm({ transPassword: pin, code, googleCode: info.googleBound ? google : undefined });
    } catch {
      setPin('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popup visible={props.visible} onMaskClick={props.onClose} bodyClassName="wl-sheet" destroyOnClose>
      <div role="dialog" aria-label={t('confirm.title')}>
        <h2 className="wl-sheet-title">{t('confirm.title')}</h2>
        <dl className="wl-facts wl-facts-compact">
          <div>
            <dt>{t('network')}</dt>
            <dd className="wl-strong" data-testid="confirm-network">
              {summary.network}
            </dd>
          </div>
          <div>
            <dt>{t('withdraw.address')}</dt>
            <dd className="wl-mono wl-break">{summary.address}</dd>
          </div>
          <div>
            <dt>{t('withdraw.amount')}</dt>
            <dd>
              {formatCoin(summary.amount, info.coin, { exact: true })} {info.coin}
            </dd>
          </div>
          <div>
            <dt>{t('withdraw.fee')}</dt>
            <dd>
              {formatCoin(summary.fee, info.coin, { exact: true })} {info.coin}
            </dd>
          </div>
          <div>
            <dt>{t('withdraw.receive')}</dt>
            <dd className="wl-strong">
              {formatCoin(summary.receive, info.coin, { exact: true })} {info.coin}
            </dd>
          </div>
        </dl>
        <PinInput
          label={t('confirm.pin')}
          value={pin}
          onChange={setPin}
          error={errors.pin}
          autoFocus={false}
          // Six digits in: the number keyboard closes, so that it no longer covers the code fields below.
          onFill={() => (document.activeElement as HTMLElement | null)?.blur()}
        />
        <Link className="wl-link wl-forgot" to="/accountCenter/postPasswordForget">
          {t('confirm.forgotPin')}
        </Link>
        <SendCodeField
          label={t(`confirm.code.${channel}`)}
          value={code}
          onChange={setCode}
          error={errors.code}
          puzzle={false}
          send={() => sendWithdrawCode(info.codeChannel)}
        />
        {info.codeTarget && <p className="wl-hint">{t('confirm.codeTo', { to: info.codeTarget })}</p>}
        {info.googleBound && (
          <Field
            label={t('confirm.google')}
            value={google}
            onChange={(v) => setGoogle(v.replace(/\D/g, '').slice(0, 6))}
            placeholder={t('confirm.googlePlaceholder')}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            error={errors.google}
          />
        )}
        <Button block color="primary" loading={busy} onClick={() => void confirm()}>
          {t('confirm.submit')}
        </Button>
      </div>
    </Popup>
  );
}
