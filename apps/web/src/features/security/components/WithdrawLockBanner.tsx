/**
 * The 24 h withdrawal lock of spec section 9 (password changed, reset through forget, or Google closed): a banner
 * with the reason and the end time while it lasts (the server enforces it; this only shows it).
 */
import { ExclamationCircleFill } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import type { SecurityInfo } from '../api/contract';
import { lockActive } from '../lib/rules';

/** The banner, or nothing when withdrawals are not locked. */
export function WithdrawLockBanner({ lock }: { lock: SecurityInfo['withdrawLock'] | undefined }) {
  const { t } = useTranslation('security');
  if (!lock || !lockActive(lock, Date.now())) return null;
  return (
    <div className="sec-lock" role="status">
      <ExclamationCircleFill className="sec-lock-icon" aria-hidden="true" />
      <div>
        <div className="sec-lock-title">{t('lock.title', { time: formatDateTime(lock.until) })}</div>
        <div className="sec-lock-reason">{t(`lock.reason.${lock.reason}`)}</div>
      </div>
    </div>
  );
}
