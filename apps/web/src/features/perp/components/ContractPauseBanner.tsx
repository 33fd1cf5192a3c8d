/**
 * The banner of a paused contract (ContractMarket.paused): why it is paused, in the user's language. The server pauses
 * a contract while its index price is stale (too few live price sources): the mark price holds, liquidations wait,
 * and only closing / reduce-only orders are accepted (an opening order answers index_stale). Nothing when not paused.
 */
import type { ContractMarket } from '@exchange/api';
import { useTranslation } from 'react-i18next';

/** The banner, or nothing while `market` trades normally. */
export function ContractPauseBanner({ market }: { market: Pick<ContractMarket, 'symbol' | 'paused' | 'pauseReason'> }) {
  const { t } = useTranslation('contract');
  if (!market.paused) return null;
  const reason = market.pauseReason === 'index_stale' ? t('pause.index_stale', { pair: market.symbol }) : t('pause.other', { pair: market.symbol });
  return (
    <div className="ct-pause" role="alert" data-testid="contract-paused">
      <b>{t('pause.title')}</b>
      <span>{reason}</span>
    </div>
  );
}
