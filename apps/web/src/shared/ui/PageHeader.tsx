/**
 * Page header with a back button (accessible name 'Back' / '返回'), a centred title and an optional
 * right slot. Back goes one step back in the app's history, or to `fallback` (default '/') when the
 * page was opened directly.
 */
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LeftOutline } from 'antd-mobile-icons';
import './ui.css';

/** Props of PageHeader. */
export interface PageHeaderProps {
  title: ReactNode;
  right?: ReactNode;
  onBack?: () => void;
  /** Where to go when there is no history entry to go back to. */
  fallback?: string;
  /** Hide the back arrow (tab pages). */
  noBack?: boolean;
}

/** True when the router's history has an entry before the current one. */
export function canGoBack(): boolean {
  const st = window.history.state as { idx?: unknown } | null;
  return !!st && typeof st.idx === 'number' && st.idx > 0;
}

/** Sticky page header. */
export function PageHeader({ title, right, onBack, fallback = '/', noBack }: PageHeaderProps) {
  const navigate = useNavigate();
  const { t } = useTranslation('common');
  const back = () => {
    if (onBack) onBack();
    else if (canGoBack()) navigate(-1);
    else navigate(fallback, { replace: true });
  };
  return (
    <header className="ex-page-header">
      <div className="ex-page-header-side">
        {!noBack && (
          <button type="button" className="ex-back" aria-label={t('back')} onClick={back}>
            <LeftOutline />
          </button>
        )}
      </div>
      <h1 className="ex-page-title">{title}</h1>
      <div className="ex-page-header-side right">{right}</div>
    </header>
  );
}
