/**
 * /helpCenter: the help centre's home: search, the categories (each opens /helpCenterDetail1?id=), and
 * the agreements and policies (/helpCenterDetail4). Content edited in the console, published copies only.
 */
import { List } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useHelpCategories } from '../api/get-help-categories';
import { HelpSearchBar } from '../components/HelpSearchBar';
import '../help.css';

/** Help centre home. */
export default function HelpCenterPage() {
  const { t } = useTranslation('help');
  const navigate = useNavigate();
  const q = useHelpCategories();
  return (
    <div className="help-page">
      <PageHeader title={t('title')} />
      <div className="help-hero">
        <h2>{t('hello')}</h2>
        <HelpSearchBar />
      </div>
      <div className="help-section-title">{t('categories')}</div>
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : !q.data || q.data.length === 0 ? (
        q.isError ? (
          <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
        ) : (
          <EmptyState text={t('empty')} />
        )
      ) : (
        <div className="help-cats">
          {q.data.map((c) => (
            <button type="button" key={c.id} className="help-cat" onClick={() => navigate(`/helpCenterDetail1?id=${c.id}`)}>
              <strong>{c.title}</strong>
              {c.description && <span>{c.description}</span>}
              <em className="num">{t('articles', { count: c.articleCount })}</em>
            </button>
          ))}
        </div>
      )}
      <List header={t('more')} style={{ marginTop: 12 }}>
        <List.Item onClick={() => navigate('/helpCenterDetail4')}>{t('policies')}</List.Item>
        <List.Item onClick={() => navigate('/noticeList')}>{t('notices')}</List.Item>
        <List.Item onClick={() => navigate('/customer')}>{t('contact')}</List.Item>
      </List>
    </div>
  );
}
