/**
 * Loading placeholder of a list or a line: grey bars with a shimmer while a query has no answer yet, so
 * a list never says "No data" before the server answered (Binance's app shows such bars while it loads,
 * never an empty state). `aria-busy` with the "Loading" label for screen readers; the shimmer stops
 * under prefers-reduced-motion; the bar colours are the theme's (ui.css), so both themes have them.
 */
import { useTranslation } from 'react-i18next';
import './ui.css';

/** Props of ListSkeleton. */
export interface ListSkeletonProps {
  /** Number of rows (default 4). */
  rows?: number;
  /** One bar a row, no padding: for a single line such as the home notice ticker. */
  inline?: boolean;
}

/** Grey bars with a shimmer; role "status", aria-busy, labelled "Loading" in the user's language. */
export function ListSkeleton({ rows = 4, inline }: ListSkeletonProps) {
  const { t } = useTranslation('common');
  return (
    <div className={`ex-skeleton${inline ? ' inline' : ''}`} role="status" aria-busy="true" aria-label={t('loading')} data-testid="skeleton">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="ex-skeleton-row" aria-hidden="true">
          <span className="ex-skeleton-bar" />
          {!inline && <span className="ex-skeleton-bar short" />}
        </div>
      ))}
    </div>
  );
}
