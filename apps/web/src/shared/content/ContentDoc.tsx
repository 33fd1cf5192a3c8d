/**
 * A full page showing a text page of the console's content (agreement, privacy, otc, merchant): header, title, the
 * date it was last published and the text. Loading, failure (with retry) and "not found" states.
 */
import type { PageSlug } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../ui';
import { formatDateTime } from '../format';
import { useContentPage } from '../content-api';
import { ContentText } from './ContentText';
import './content.css';

/** The page `slug`; `title` shows in the header while it loads; `fallback` is where Back goes when opened directly. */
export function ContentDoc({ slug, title, fallback }: { slug: PageSlug; title: string; fallback?: string }) {
  const { t } = useTranslation('common');
  const q = useContentPage(slug);
  return (
    <div className="ex-content-doc">
      <PageHeader title={q.data?.title ?? title} fallback={fallback} />
      {q.isLoading ? (
        <InlineLoading />
      ) : !q.data ? (
        q.isError && (q.error as { code?: string }).code !== 'content_not_found' ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <EmptyState text={t('noData')} />
        )
      ) : (
        <article>
          <h2>{q.data.title}</h2>
          <div className="text-3 num ex-content-updated">{t('contentUpdated', { date: formatDateTime(q.data.updateTime) })}</div>
          <ContentText text={q.data.content} />
        </article>
      )}
    </div>
  );
}
