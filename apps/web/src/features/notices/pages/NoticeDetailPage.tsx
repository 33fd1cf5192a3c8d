/** /noticeDetail?id=: one announcement; the content is shown as text paragraphs (never as HTML). */
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { formatDateTime } from '../../../shared/format';
import { useNoticeDetail } from '../api/get-notice-detail';

/** Strips tags from server text so that it can be shown as plain paragraphs. */
export function toParagraphs(content: string): string[] {
  return content
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .split(/\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

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
        q.isError ? <LoadFailed error={q.error} onRetry={() => void q.refetch()} /> : <EmptyState text={t('notFound')} />
      ) : (
        <article style={{ padding: '16px 18px 40px' }}>
          <h2 style={{ fontSize: 19, lineHeight: 1.4, margin: '0 0 8px' }}>{q.data.title}</h2>
          <div className="text-3 num" style={{ fontSize: 12, marginBottom: 16 }}>
            {formatDateTime(q.data.createTime)}
          </div>
          {toParagraphs(q.data.content).map((p, i) => (
            <p key={i} style={{ fontSize: 15, lineHeight: 1.75, margin: '0 0 12px', color: 'var(--ex-text)' }}>
              {p}
            </p>
          ))}
        </article>
      )}
    </div>
  );
}
