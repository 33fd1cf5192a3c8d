/**
 * Header of the deposit, withdraw and transfer screens: the page header with the records icon on the right, which
 * opens the capital records of the matching type (spec section 2: "Top-bar right icon on deposit, withdraw and
 * transfer opens capital records of the matching type").
 */
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RecordType } from '@exchange/api';
import { PageHeader } from '../../../shared/ui';

/** The header; `records` names the records type the right icon opens (none: no icon). */
export function WalletHeader({ title, records, fallback = '/assets' }: { title: ReactNode; records?: RecordType; fallback?: string }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  return (
    <PageHeader
      title={title}
      fallback={fallback}
      right={
        records && (
          <button
            type="button"
            className="wl-icon-btn"
            aria-label={t(`recordsOf.${records}`)}
            onClick={() => navigate(`/assets/capitalRecords?type=${records}`)}
          >
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
              <path
                d="M6 3h9l4 4v14H6zM14 3v5h5M9 12h7M9 16h7"
                stroke="currentColor"
                strokeWidth="1.7"
                fill="none"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
        )
      }
    />
  );
}
