/** /helpCenterDetail1?id=: one help centre category and its articles (each opens /helpCenterDetail2?id=). */
import { List } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useHelpArticles } from '../api/get-help-articles';
import '../help.css';

/** Category page. */
export default function HelpCategoryPage() {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const q = useHelpArticles(Number(params.get('id')));
  const missing = !q.isLoading && (!q.data || (q.isError && (q.error as { code?: string }).code === 'content_not_found'));
  return (
    <div className="help-page">
      <PageHeader title={q.data?.category.title ?? t('title')} fallback="/helpCenter" />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : missing || !q.data ? (
        q.isError && (q.error as { code?: string }).code !== 'content_not_found' ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <EmptyState text={t('notFound')} />
        )
      ) : (
        <>
          {q.data.category.description && <div className="help-section-title">{q.data.category.description}</div>}
          {q.data.articles.length === 0 ? (
            <EmptyState text={t('noArticles')} />
          ) : (
            <List>
              {q.data.articles.map((a) => (
                <List.Item key={a.id} onClick={() => navigate(`/helpCenterDetail2?id=${a.id}`)}>
                  {a.title}
                </List.Item>
              ))}
            </List>
          )}
        </>
      )}
    </div>
  );
}
