/**
 * The shared page of a route whose screen is not built yet (a route of NOT_YET_AVAILABLE in app/routes.tsx,
 * a list that is empty today): says plainly, in both languages, that the feature is not available yet, with a
 * back button.
 */
import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';

/** Not-available page; `embedded` drops the header (used inside another page). */
export default function NotAvailablePage({ embedded }: { embedded?: boolean }) {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  return (
    <div>
      {!embedded && <PageHeader title={t('notAvailable.title')} />}
      <div role="status" style={{ padding: '72px 28px', textAlign: 'center' }}>
        <svg width="88" height="88" viewBox="0 0 88 88" aria-hidden="true">
          <circle cx="44" cy="44" r="40" fill="var(--ex-primary-soft)" />
          <path d="M44 24v24l14 8" stroke="var(--ex-primary)" strokeWidth="5" fill="none" strokeLinecap="round" />
        </svg>
        <h2 style={{ fontSize: 18, margin: '20px 0 8px' }}>{t('notAvailable.title')}</h2>
        <p className="text-2" style={{ fontSize: 14, lineHeight: 1.6, margin: '0 0 28px' }}>
          {t('notAvailable.text')}
        </p>
        <Button color="primary" fill="outline" onClick={() => navigate('/', { replace: true })}>
          {t('notAvailable.backHome')}
        </Button>
      </div>
    </div>
  );
}
