/** Loading indicators: a page-level spinner (route suspense fallback) and an inline one. */
import { DotLoading, SpinLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import './ui.css';

/** Full-page loading used while a lazy route loads. */
export function PageLoading() {
  const { t } = useTranslation('common');
  return (
    <div className="ex-page-loading" role="progressbar" aria-label={t('loading')}>
      <SpinLoading color="primary" style={{ '--size': '32px' }} />
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
