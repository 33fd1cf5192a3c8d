/**
 * /noticeDetail?id=: one announcement, edited in the console; the content is plain text shown as headings
 * and paragraphs (shared/content/ContentText: never as HTML).
 */
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { formatDateTime } from '../../../shared/format';
import { ContentText } from '../../../shared/content/ContentText';
import { useNoticeDetail } from '../api/get-notice-detail';

/** Notice detail page. */
export default function NoticeDetailPage() {
  const { t } = useTranslation('notices');
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const q = useNoticeDetail(id);
  return (
    <div style={{ minHeight: '100vh', background: 'var(--ex-bg)' }}>
      <PageHeader title={t('detailTitle')} fallback="/noticeList" />
      {q.isLoading ? (
        <InlineLoading />
      ) : !q.data ? (
        q.isError && (q.error as { code?: string }).code !== 'not_found' ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <EmptyState text={t('notFound')} />
        )
      ) : (
        <article style={{ padding: '16px 18px 40px' }}>
          <h2 style={{ fontSize: 19, lineHeight: 1.4, margin: '0 0 8px' }}>{q.data.title}</h2>
          <div className="text-3 num" style={{ fontSize: 12, marginBottom: 16 }}>
            {formatDateTime(q.data.createTime)}
          </div>
          <ContentText text={q.data.content} />
        </article>
      )}
    </div>
  );
}
