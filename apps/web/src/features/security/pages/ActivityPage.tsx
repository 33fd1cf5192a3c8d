/**
 * /accountCenter/activity (the sessions and security log, as Binance's account activity): logins (success
 * and failure), password and 2FA changes, bindings and session revokes, with device, IP and time, newest first,
 * twenty at a time ("more" loads the next page).
 */
import { Button, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { logEntries, useSecurityLog } from '../api/security-log';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import '../security.css';

/** Account activity page. */
export default function ActivityPage() {
  const { t } = useTranslation('security');
  return (
    <div className="sec-page">
      <PageHeader title={t('activity')} fallback="/accountCenter" />
      <LoginFirst>
        <Activity />
      </LoginFirst>
    </div>
  );
}

function Activity() {
  const { t, i18n } = useTranslation('security');
  const q = useSecurityLog();
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const entries = q.data.pages.flatMap(logEntries);
  if (entries.length === 0) return <EmptyState />;
  return (
    <>
      <List className="sec-list">
        {entries.map((e, i) => {
          const key = `event.${e.type}`;
          return (
            <List.Item
              key={e.id || i}
              arrowIcon={false}
              description={
                <div className="sec-meta">
                  <div>{e.device}</div>
                  <div>
                    IP {e.ip || '--'} · {formatDateTime(e.createdAt)}
                  </div>
                </div>
              }
              extra={e.type === 'LOGIN_FAILED' ? <Tag color="danger">{t('failed')}</Tag> : undefined}
            >
              {i18n.exists(`security:${key}`) ? t(key) : e.type}
              {e.detail && i18n.exists(`security:detail.${e.detail}`) ? ` · ${t(`detail.${e.detail}`)}` : ''}
            </List.Item>
          );
        })}
      </List>
      {q.hasNextPage && (
        <div className="sec-form">
          <Button block fill="outline" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
            {t('common:more')}
          </Button>
        </div>
      )}
    </>
  );
}
