/**
 * The page of an unknown URL: says the page does not exist, in the user's
 * language, with a "Back to home" button; a visitor is never silently sent elsewhere. Routes of
 * features that come later keep their own "not available yet" page (features/placeholder).
 */
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';

/** Not-found page (route `*`). */
export default function NotFoundPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <div>
      <PageHeader title={t('notFound.title')} />
      <div role="main" aria-labelledby="not-found-title" style={{ padding: '72px 28px', textAlign: 'center' }}>
        <svg width="120" height="88" viewBox="0 0 120 88" aria-hidden="true">
          <rect x="10" y="10" width="100" height="68" rx="10" fill="var(--ex-bg-2)" stroke="var(--ex-border)" strokeWidth="2" />
          <path d="M10 26h100" stroke="var(--ex-border)" strokeWidth="2" />
          <circle cx="22" cy="18" r="3" fill="var(--ex-text-3)" />
          <circle cx="32" cy="18" r="3" fill="var(--ex-text-3)" />
          <text x="60" y="64" textAnchor="middle" fontSize="28" fontWeight="700" fill="var(--ex-primary)" fontFamily="inherit">
            404
          </text>
        </svg>
        <h2 id="not-found-title" style={{ fontSize: 18, margin: '20px 0 8px' }}>
          {t('notFound.title')}
        </h2>
        <p className="text-2" style={{ fontSize: 14, lineHeight: 1.6, margin: '0 0 28px' }}>
          {t('notFound.text')}
        </p>
        <Button color="primary" onClick={() => navigate('/', { replace: true })} style={{ minWidth: 160 }}>
          {t('notFound.backHome')}
        </Button>
      </div>
    </div>
  );
}
