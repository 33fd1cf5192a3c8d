/** /about: what the app is, its version, and links to the user agreement and privacy policy. */
import { List } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import { APP_VERSION, RUNNING_BUILD_ID } from '../../../shared/bridge';

/** About page. */
export default function AboutPage() {
  const { t } = useTranslation('legal');
  const navigate = useNavigate();
  return (
    <div style={{ minHeight: '100vh', background: 'var(--ex-bg-2)' }}>
      <PageHeader title={t('aboutTitle')} />
      <div style={{ textAlign: 'center', padding: '32px 24px 20px' }}>
        <svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true">
          <rect width="64" height="64" rx="14" fill="var(--ex-primary)" />
          <path d="M18 40l10-12 8 8 10-14" stroke="#fff" strokeWidth="5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <h2 style={{ margin: '12px 0 4px', fontSize: 20 }}>{t('common:appName')}</h2>
        <div className="text-3 num" style={{ fontSize: 12 }}>
          {t('version')} {APP_VERSION} ({RUNNING_BUILD_ID.slice(0, 10)})
        </div>
        <p className="text-2" style={{ fontSize: 14, lineHeight: 1.7, textAlign: 'left', marginTop: 20 }}>
          {t('aboutIntro')}
        </p>
      </div>
      <List header={t('features')}>
        {(['f1', 'f2', 'f3', 'f4'] as const).map((k) => (
          <List.Item key={k} arrowIcon={false}>
            {t(k)}
          </List.Item>
        ))}
      </List>
      <List style={{ marginTop: 10 }}>
        <List.Item onClick={() => navigate('/agreement')}>{t('userAgreement')}</List.Item>
        <List.Item onClick={() => navigate('/aboutAgreement')}>{t('privacyPolicy')}</List.Item>
      </List>
    </div>
  );
}
