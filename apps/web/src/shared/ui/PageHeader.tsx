/**
 * Page header (antd-mobile NavBar) with a back button labelled for screen readers and journeys
 * ('Back'). `onBack` defaults to history back, or `fallback` (default '/') when there is no history.
 */
import type { ReactNode } from 'react';
import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
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

/** Sticky page header with back arrow and title. */
export function PageHeader({ title, right, onBack, fallback = '/', noBack }: PageHeaderProps) {
  const navigate = useNavigate();
  const { t } = useTranslation('common');
  const back = () => {
    if (onBack) onBack();
    else if (window.history.state && typeof window.history.state.idx === 'number' && window.history.state.idx > 0) navigate(-1);
    else navigate(fallback, { replace: true });
  };
  return (
    <div className="ex-page-header">
      <NavBar
        back={noBack ? null : ''}
        backIcon={noBack ? false : <span role="button" aria-label={t('back')} className="ex-back">‹</span>}
        onBack={noBack ? undefined : back}
        right={right}
      >
        <h1 className="ex-page-title">{title}</h1>
      </NavBar>
    </div>
  );
}
