/** Empty state: an icon and a line of text ("No data" by default). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './ui.css';

/** Props of EmptyState. */
export interface EmptyStateProps {
  text?: ReactNode;
  action?: ReactNode;
}

/** Centered empty placeholder used by lists. */
export function EmptyState({ text, action }: EmptyStateProps) {
  const { t } = useTranslation('common');
  return (
    <div className="ex-empty" role="status">
      <svg width="72" height="56" viewBox="0 0 72 56" aria-hidden="true">
        <rect x="10" y="14" width="52" height="36" rx="6" fill="var(--ex-bg-2)" stroke="var(--ex-border)" />
        <path d="M10 26h16l4 6h12l4-6h16" fill="none" stroke="var(--ex-text-3)" strokeWidth="2" />
        <circle cx="36" cy="8" r="3" fill="var(--ex-text-3)" />
      </svg>
      <div className="ex-empty-text">{text ?? t('noData')}</div>
      {action}
    </div>
  );
}
