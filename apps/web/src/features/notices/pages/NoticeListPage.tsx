/** /noticeList: official announcements, newest first; each opens /noticeDetail?id=. */
import { List, PullToRefresh } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { formatDateTime } from '../../../shared/format';
import { useNotices } from '../../../shared/content-api';

/** Notice list page. */
export default function NoticeListPage() {
  const { t } = useTranslation('notices');
  const navigate = useNavigate();
  const q = useNotices();
  const list = [...(q.data ?? [])].sort((a, b) => b.createTime - a.createTime);
  return (
    <div style={{ minHeight: '100vh', background: 'var(--ex-bg)' }}>
      <PageHeader title={t('title')} />
      <PullToRefresh onRefresh={async () => void (await q.refetch())} threshold={46} headHeight={46} completeDelay={1000}>
        {isAwaiting(q) ? (
          <ListSkeleton />
        ) : list.length === 0 ? (
          q.isError ? (
            <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
          ) : (
            <EmptyState text={t('empty')} />
          )
        ) : (
          <List>
            {list.map((n) => (
              <List.Item
                key={n.id}
                onClick={() => navigate(`/noticeDetail?id=${n.id}`)}
                description={<span className="num">{formatDateTime(n.createTime)}</span>}
              >
                {n.title}
              </List.Item>
            ))}
          </List>
        )}
      </PullToRefresh>
    </div>
  );
}
