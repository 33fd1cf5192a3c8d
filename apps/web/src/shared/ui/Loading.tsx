/**
 * Loading indicators: a page-level spinner (route suspense fallback) and an inline one. The page
 * spinner is a CSS-animated SVG, not antd-mobile's SpinLoading: it shows in the app shell, and
 * SpinLoading would bring react-spring (12 KB gzip) into the initial JavaScript.
 */
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';
import './ui.css';

/** Full-page loading used while a lazy route loads. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="ex-page-loading" role="progressbar" aria-label={t('loading')}>
      <svg className="ex-spinner" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="13" fill="none" stroke="var(--ex-border)" strokeWidth="3" />
        <path d="M16 3a13 13 0 0 1 13 13" fill="none" stroke="var(--ex-primary)" strokeWidth="3" strokeLinecap="round" />
      </svg>
    </div>
  );
}

/** Inline "Loading..." with animated dots. */
export function InlineLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="ex-inline-loading">
      {t('loading')}
      <DotLoading />
    </div>
  );
}
