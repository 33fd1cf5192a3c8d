/**
 * /activityHistory (login): the activities the user joined, newest first, each with the user's progress, rank and
 * reward (paid, or the prize at the current rank while the activity runs); a card opens its details.
 */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd-mobile';
import type { ActivityHistoryRow } from '@exchange/api';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useActivityHistory } from '../api/get-history';
import { ActivityCard, coinAmount, useNow } from '../components/parts';
import '../activity.css';

/** The user's figures under a card of the history. */
function MineLine({ row }: { row: ActivityHistoryRow }) {
  const { t } = useTranslation('activity');
  const { activity: a, mine } = row;
  const trading = a.kind === 'TRADING';
  return (
    <div className="act-mine-line">
      <div className="act-row">
        <span className="act-row-label">{t(trading ? 'detail.volume' : 'detail.deposited', { coin: a.coin })}</span>
        <span className="act-row-value">{coinAmount(mine.progress)}</span>
      </div>
      <div className="act-row">
        <span className="act-row-label">{t(trading ? 'detail.rank' : 'detail.order')}</span>
        <span className="act-row-value">{mine.rank > 0 ? `#${mine.rank}` : t(trading ? 'detail.unranked' : 'detail.notQualified')}</span>
      </div>
      <div className="act-row">
        <span className="act-row-label">{t(mine.paid || a.settled ? 'detail.reward' : 'detail.expected')}</span>
        <span className={`act-row-value${mine.paid ? ' act-paid' : ''}`}>
          {coinAmount(mine.reward)} {a.coin}
          {mine.paid ? ` · ${t('status.SETTLED')}` : ''}
        </span>
      </div>
    </div>
  );
}

/** The my-activities page. */
export default function ActivityHistoryPage() {
  const { t } = useTranslation('activity');
  const navigate = useNavigate();
  const q = useActivityHistory();
  const now = useNow();
  return (
    <div className="act-page">
      <PageHeader title={t('history')} fallback="/activity" />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError && !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data ?? []).length === 0 ? (
        <div className="act-empty">
          <EmptyState text={t('emptyHistory')} />
          <Button color="primary" fill="outline" onClick={() => navigate('/activity')}>
            {t('toActivities')}
          </Button>
        </div>
      ) : (
        <ul className="act-list" aria-label={t('history')}>
          {(q.data ?? []).map((row) => (
            <ActivityCard
              key={row.activity.activityId}
              a={row.activity}
              now={now}
              onOpen={() => navigate(`/activityDetails?activityId=${encodeURIComponent(row.activity.activityId)}`)}
              extra={<MineLine row={row} />}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
