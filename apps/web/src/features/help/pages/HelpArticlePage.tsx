/** /helpCenterDetail2?id=: one help centre article, with its category and the time it was published. */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { formatDateTime } from '../../../shared/format';
import { ContentText } from '../../../shared/content/ContentText';
import { useHelpArticle } from '../api/get-help-article';
import '../help.css';

/** Article page. */
export default function HelpArticlePage() {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const q = useHelpArticle(Number(params.get('id')));
  const a = q.data;
  return (
    <div className="help-article">
      <PageHeader title={t('articleTitle')} fallback="/helpCenter" />
      {q.isLoading ? (
        <InlineLoading />
      ) : !a ? (
        q.isError && (q.error as { code?: string }).code !== 'content_not_found' ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <EmptyState text={t('notFound')} />
        )
      ) : (
        <article>
          <h2>{a.title}</h2>
          <div className="help-crumb text-3">
            <button type="button" onClick={() => navigate(`/helpCenterDetail1?id=${a.categoryId}`)}>
              {a.categoryTitle}
            </button>
            <span className="num">{t('updated', { date: formatDateTime(a.updateTime) })}</span>
          </div>
          <ContentText text={a.content} />
        </article>
      )}
    </div>
  );
}
