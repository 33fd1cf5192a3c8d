/**
 * Small pieces of the OTC screens: the payment type tag (icon letter and name), a label/value row with a copy
 * button, the clock hook of the countdowns, the merchant line of an ad (nickname, 30-day orders and completion rate).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OtcMerchantBrief, OtcPayType } from '@exchange/api';
import { copyText } from '../../../shared/clipboard';
import { showToast } from '../../../shared/api-client';

/** The first letter of each payment type's icon (bank card, WeChat, Alipay), as Binance P2P's coloured bars. */
const PAY_ICON: Record<OtcPayType, string> = { BANK: '卡', WECHAT: '微', ALIPAY: '支' };

/** A payment type tag: coloured mark and name ('compact' shows the mark and a short name). */
export function PayTypeTag({ type }: { type: OtcPayType }) {
  const { t } = useTranslation('otc');
  return (
    <span className={`otc-pay otc-pay-${type.toLowerCase()}`}>
      <span className="otc-pay-mark" aria-hidden>
        {PAY_ICON[type]}
      </span>
      {t(`payType.${type}`)}
    </span>
  );
}

/** A row "label ... value [copy]"; copying toasts "Copied" or the spec's "Copy failed, please retry". */
export function InfoRow({ label, value, copy, strong }: { label: ReactNode; value: ReactNode; copy?: string; strong?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <div className="otc-row">
      <span className="otc-row-label">{label}</span>
      <span className={`otc-row-value${strong ? ' otc-strong' : ''}`}>
        {value}
        {copy !== undefined && (
          <button
            type="button"
            className="otc-copy"
            aria-label={`${t('copy')} ${typeof label === 'string' ? label : ''}`.trim()}
            onClick={() => void copyText(copy).then((ok) => showToast(ok ? t('copied') : t('copyFailed')))}
          >
            {t('copy')}
          </button>
        )}
      </span>
    </div>
  );
}

/** The current time (ms), ticking every second while mounted (countdowns). */
export function useNow(tickMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}

/** "mm:ss" (or "h:mm:ss") left until `ts`, never negative. */
export function formatLeft(ts: number, now: number): string {
  const left = Math.max(0, Math.floor((ts - now) / 1000));
  const h = Math.floor(left / 3600);
  const mm = String(Math.floor((left % 3600) / 60)).padStart(2, '0');
  const ss = String(left % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** Seconds as minutes with one decimal, rounded half up ("0.5" for 30 s): the average release time's unit on Binance P2P. */
export function releaseMinutes(seconds: number): string {
  const tenths = Math.floor((seconds + 3) / 6);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

/** The merchant of an ad: avatar letter, nickname, 30-day completed orders, completion rate and average release time. */
export function MerchantLine({ m }: { m: OtcMerchantBrief }) {
  const { t } = useTranslation('otc');
  return (
    <div className="otc-merchant">
      <span className="otc-avatar" aria-hidden>
        {(m.nickName || '?').slice(0, 1).toUpperCase()}
      </span>
      <span className="otc-merchant-name">{m.nickName || '--'}</span>
      <span className="otc-merchant-stats text-3">
        {t('ad.orders30d', { n: m.orders30d })} | {t('ad.completion', { rate: m.completionRate30d })}
        {m.avgReleaseSeconds > 0 && <> | {t('ad.avgRelease', { n: releaseMinutes(m.avgReleaseSeconds) })}</>}
      </span>
    </div>
  );
}
