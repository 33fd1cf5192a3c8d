/**
 * A list or section that failed to load: the text of spec section 8 for the cause
 * (shared/api-client load-failure.ts: offline, connection failed, the HTTP alert of the status, timeout,
 * the server's message, or 'Load failed, please retry'), in the user's language, and a Retry button
 * (Reload when the browser is offline, as the spec's no-network message has it).
 */
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { loadFailureKind, loadFailureText } from '../api-client/load-failure';
import './ui.css';

/** Props of LoadFailed. */
export interface LoadFailedProps {
  /** The query's error (`query.error`). */
  error: unknown;
  /** Loads again (`() => query.refetch()`); without it no button is shown. */
  onRetry?: () => void;
  /** A smaller block for a section inside a page (no picture). */
  compact?: boolean;
}

/** Load-failure block: picture, the section 8 text, Retry. */
export function LoadFailed({ error, onRetry, compact }: LoadFailedProps) {
  // Re-rendered on a language change: the text is computed here, never kept from the time of the failure.
  const { t } = useTranslation('common');
  const offline = loadFailureKind(error) === 'offline';
  return (
    <div className={`ex-load-failed${compact ? ' compact' : ''}`} role="alert">
      {!compact && (
        <svg width="72" height="56" viewBox="0 0 72 56" aria-hidden="true">
          <rect x="10" y="12" width="52" height="38" rx="6" fill="var(--ex-bg-2)" stroke="var(--ex-border)" />
          <path d="M36 21v14" stroke="var(--ex-text-3)" strokeWidth="3" strokeLinecap="round" />
          <circle cx="36" cy="41.5" r="2" fill="var(--ex-text-3)" />
        </svg>
      )}
      <div className="ex-load-failed-text">{loadFailureText(error)}</div>
      {onRetry && (
        <Button size="small" color="primary" fill="outline" onClick={onRetry}>
          {offline ? t('offline.reload') : t('retry')}
        </Button>
      )}
    </div>
  );
}
