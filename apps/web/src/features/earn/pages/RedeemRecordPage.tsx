/**
 * /redeem_record: the user's redemptions, latest first: at maturity (the daily job) or early; the principal
 * given back, the interest kept (paid minus what an early redemption took back) and when.
 */
import { useTranslation } from 'react-i18next';
import { formatCoin, subDecimal } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useEarnRedemptions } from '../api/get-redemptions';
import { formatTime } from '../lib/time';
import '../earn.css';
import { formatApr } from '../lib/interest';

/** The redemption records page. */
export default function RedeemRecordPage() {
  const { t } = useTranslation('earn');
  const q = useEarnRedemptions();
  return (
    <div className="en-page">
      <PageHeader title={t('records.redemptions')} fallback="/mort_record" />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data?.records ?? []).length === 0 ? (
        <EmptyState text={t('noRedemptions')} />
      ) : (
        <ul aria-label={t('records.redemptions')} style={{ listStyle: 'none', margin: '8px 0 0', padding: 0 }}>
          {(q.data?.records ?? []).map((l) => (
            <li key={l.lockId} className="en-card" aria-label={t('lockName', { amount: formatCoin(l.amount, l.coin, { exact: true }), coin: l.coin })}>
              <div className="en-card-head">
                <div>
                  <div className="en-coin num">
                    {formatCoin(l.amount, l.coin, { exact: true })} {l.coin}
                  </div>
                  <div className="en-term">
                    {t('termDays', { n: l.termDays })} · {formatApr(l.apr)}
                  </div>
                </div>
                <span className={`en-tag ${l.redeemKind === 'EARLY' ? 'no' : 'ok'}`}>{t(`kind.${l.redeemKind || 'MATURITY'}`)}</span>
              </div>
              <dl className="en-kv">
                <dt>{t('returned')}</dt>
                <dd className="num" data-testid="returned">
                  {formatCoin(l.returned, l.coin, { exact: true })} {l.coin}
                </dd>
                <dt>{t('interestKept')}</dt>
                <dd className="num">
                  {formatCoin(subDecimal(l.interestPaid || '0', l.forfeited || '0'), l.coin, { exact: true })} {l.coin}
                </dd>
                {l.redeemKind === 'EARLY' && (
                  <>
                    <dt>{t('forfeited')}</dt>
                    <dd className="num">
                      {formatCoin(l.forfeited, l.coin, { exact: true })} {l.coin}
                    </dd>
                  </>
                )}
                <dt>{t('startAt')}</dt>
                <dd className="num">{formatTime(l.startAt)}</dd>
                <dt>{t('redeemedAt')}</dt>
                <dd className="num">{formatTime(l.redeemedAt)}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
