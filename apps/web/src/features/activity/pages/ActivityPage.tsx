/**
 * /activity: the activity centre (home's quick button). Tabs ongoing, upcoming and ended; each card opens
 * /activityDetails?activityId=; the header's right link opens the user's joined activities (/activityHistory).
 * Public: joining asks to log in on the detail page.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ActivityStatus } from '@exchange/api';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useActivities } from '../api/get-activities';
import { ActivityCard, useNow } from '../components/parts';
import '../activity.css';

const TABS: readonly ActivityStatus[] = ['ONGOING', 'UPCOMING', 'ENDED'];

/** The activity centre page. */
export default function ActivityPage() {
  const { t } = useTranslation('activity');
  const navigate = useNavigate();
  const [tab, setTab] = useState<ActivityStatus>('ONGOING');
  const q = useActivities();
  const now = useNow();
  const records = (q.data ?? []).filter((a) => a.status === tab);
  return (
    <div className="act-page">
      <PageHeader
        title={t('title')}
        right={
          <button type="button" className="act-link" onClick={() => navigate('/activityHistory')}>
            {t('history')}
          </button>
        }
      />
      <SegTabs classPrefix="act" label={t('title')} items={TABS.map((k) => ({ key: k, label: t(`tab.${k}`) }))} active={tab} onChange={setTab} />
      <div role="tabpanel">
        {isAwaiting(q) ? (
          <ListSkeleton />
        ) : q.isError && !q.data ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : records.length === 0 ? (
          <EmptyState text={t('empty')} />
        ) : (
          <ul className="act-list" aria-label={t(`tab.${tab}`)}>
            {records.map((a) => (
              <ActivityCard key={a.activityId} a={a} now={now} onOpen={() => navigate(`/activityDetails?activityId=${encodeURIComponent(a.activityId)}`)} />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
