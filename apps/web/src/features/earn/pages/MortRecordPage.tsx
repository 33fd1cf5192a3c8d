/**
 * /mort_record: the user's running locks: amount, rate, term, start and maturity, the days of interest paid
 * and the interest so far against the whole term's. "Redeem early" (products that allow it) asks to confirm with what
 * comes back (the principal minus the interest already paid); locks without it say they redeem at maturity (the
 * daily job returns them). Links to the redemption records.
 */
import Button from 'antd-mobile/es/components/button';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EarnLock } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { formatCoin } from '../../../shared/format';
import { loadFeedback } from '../../../shared/ui/feedback';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useEarnActions } from '../api/earn-actions';
import { useEarnLocks } from '../api/get-locks';
import { formatTime } from '../lib/time';
import '../earn.css';
import { formatApr } from '../lib/interest';

/** The running locks page. */
export default function MortRecordPage() {
  const { t } = useTranslation('earn');
  const navigate = useNavigate();
  const q = useEarnLocks();
  return (
    <div className="en-page">
      <PageHeader
        title={t('records.locks')}
        fallback="/mortgage"
        right={
          <button
            type="button"
            className="ex-link"
            style={{ border: 0, background: 'none', color: 'inherit', fontSize: 13 }}
            onClick={() => navigate('/redeem_record')}
          >
            {t('records.redemptionsShort')}
          </button>
        }
      />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data?.records ?? []).length === 0 ? (
        <EmptyState text={t('noLocks')} />
      ) : (
        <ul aria-label={t('records.locks')} style={{ listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
          {(q.data?.records ?? []).map((l) => (
            <LockCard key={l.lockId} lock={l} />
          ))}
        </ul>
      )}
    </div>
  );
}

function LockCard({ lock: l }: { lock: EarnLock }) {
  const { t } = useTranslation('earn');
  const { redeem } = useEarnActions();
  const pct = Math.round((l.daysPaid * 100) / Math.max(1, l.termDays));
  const ask = async () => {
    const { Dialog } = await loadFeedback();
    const ok = await Dialog.confirm({
      title: t('redeemTitle'),
      content: t('redeemConfirm', {
        back: formatCoin(l.earlyReturn, l.coin, { exact: true }),
        lost: formatCoin(l.interestPaid, l.coin, { exact: true }),
        coin: l.coin,
      }),
      confirmText: t('redeemEarly'),
      cancelText: t('cancel'),
    });
    if (ok) redeem.mutate(l.lockId, { onSuccess: (r) => showToast(t('redeemed', { v: formatCoin(r.returned, r.coin, { exact: true }), coin: r.coin }), 2000) });
  };
  return (
    <li className="en-card" aria-label={t('lockName', { amount: formatCoin(l.amount, l.coin, { exact: true }), coin: l.coin })}>
      <div className="en-card-head">
        <div>
          <div className="en-coin num">
            {formatCoin(l.amount, l.coin, { exact: true })} {l.coin}
          </div>
          <div className="en-term">
            {t('termDays', { n: l.termDays })} · {formatApr(l.apr)}
          </div>
        </div>
        <span className="en-tag ok">{t('status.LOCKED')}</span>
      </div>
      <div className="en-progress" aria-hidden="true">
        <span style={{ width: `${pct}%` }} />
      </div>
      <dl className="en-kv">
        <dt>{t('startAt')}</dt>
        <dd className="num">{formatTime(l.startAt)}</dd>
        <dt>{t('endAt')}</dt>
        <dd className="num">{formatTime(l.endAt)}</dd>
        <dt>{t('daysPaid')}</dt>
        <dd className="num">
          {l.daysPaid} / {l.termDays}
        </dd>
        <dt>{t('interestPaid')}</dt>
        <dd className="num" data-testid="interest-paid">
          {formatCoin(l.interestPaid, l.coin, { exact: true })} {l.coin}
        </dd>
        <dt>{t('expected')}</dt>
        <dd className="num">
          {formatCoin(l.expectedInterest, l.coin, { exact: true })} {l.coin}
        </dd>
      </dl>
      {l.earlyRedeem === 'FORFEIT_INTEREST' ? (
        <Button block size="small" loading={redeem.isPending} onClick={() => void ask()}>
          {t('redeemEarly')}
        </Button>
      ) : (
        <p className="en-muted">{t('noEarly')}</p>
      )}
    </li>
  );
}
