/**
 * Star toggling a pair's favourite state (login guard of spec section 4: logged-out visitors are asked
 * 'You are not logged in, log in?'). Labelled "Add to favourites" / "Remove from favourites"
 * (without the pair, so a row's own name stays unique; scope by its list item). A change is confirmed
 * with a toast, "Added to favourites" / "Removed from favourites", in the list as on the detail page.
 */
import type { MarketType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { useRequireLogin } from '../../../shared/guards';
import { showToast } from '../../../shared/api-client';
import { useToggleFavorite } from '../api/toggle-favorite';

/** Props of FavoriteButton. */
export interface FavoriteButtonProps {
  pairsName: string;
  type: MarketType;
  on: boolean;
  size?: number;
  /** Toast the change (default true). */
  toast?: boolean;
}

/** The favourite star. */
export function FavoriteButton({ pairsName, type, on, size = 16, toast = true }: FavoriteButtonProps) {
  const { t } = useTranslation('quotes');
  const requireLogin = useRequireLogin();
  const mutation = useToggleFavorite();
  return (
    <button
      type="button"
      className={`qt-star${on ? ' qt-star-on' : ''}`}
      aria-label={t(on ? 'removeFavorite' : 'addFavorite')}
      aria-pressed={on}
      onClick={(e) => {
        e.stopPropagation();
        if (!requireLogin()) return;
        mutation.mutate({ pairsName, type, on: !on }, { onSuccess: () => toast && showToast(t(on ? 'favoriteRemoved' : 'favoriteAdded')) });
      }}
    >
      <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 2.8l2.8 5.9 6.4.8-4.7 4.4 1.2 6.4L12 17.2l-5.7 3.1 1.2-6.4-4.7-4.4 6.4-.8z"
          fill={on ? 'var(--ex-accent)' : 'none'}
          stroke={on ? 'var(--ex-accent)' : 'currentColor'}
          strokeWidth="1.6"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
