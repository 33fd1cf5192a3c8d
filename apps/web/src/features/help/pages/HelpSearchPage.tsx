/** /helpCenterDetail3?q=: help centre search results (title, category, the text around the match). */
import { List } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useHelpSearch } from '../api/search-help';
import { HelpSearchBar } from '../components/HelpSearchBar';
import '../help.css';

/** `text` with the first match of `q` (case-insensitive) in a <mark>. */
export function highlight(text: string, q: string) {
  const at = q ? text.toLowerCase().indexOf(q.toLowerCase()) : -1;
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + q.length)}</mark>
      {text.slice(at + q.length)}
    </>
  );
}

/** Search results page. */
export default function HelpSearchPage() {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const words = (params.get('q') ?? '').trim();
  const q = useHelpSearch(words);
  return (
    <div className="help-page">
      <PageHeader title={t('searchTitle')} fallback="/helpCenter" />
      <div className="help-hero">
        <HelpSearchBar key={words} initial={words} replace />
      </div>
      {words === '' ? (
        <EmptyState text={t('searchHint')} />
      ) : isAwaiting(q) ? (
        <ListSkeleton />
      ) : !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.length === 0 ? (
        <EmptyState text={t('noResults', { q: words })} />
      ) : (
        <>
          <div className="help-section-title">{t('results', { count: q.data.length })}</div>
          <List>
            {q.data.map((h) => (
              <List.Item
                key={h.id}
                onClick={() => navigate(`/helpCenterDetail2?id=${h.id}`)}
                description={
                  <>
                    <span>{h.categoryTitle}</span>
                    {h.snippet && <div className="help-hit-snippet">{highlight(h.snippet, words)}</div>}
                  </>
                }
              >
                {highlight(h.title, words)}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </div>
  );
}
