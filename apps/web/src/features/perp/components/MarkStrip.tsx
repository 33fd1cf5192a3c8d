/**
 * The contract's price strip: mark price, index price, and the predicted funding rate with the countdown to
 * the next funding (00:00, 08:00, 16:00 UTC), live from the contractMark pushes. The index price opens its
 * components (IndexComponentsSheet).
 */
import { useState } from 'react';
import type { ContractMarket } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatCountdown, formatFixed, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { useNow } from '../hooks/use-contract-market';
import { IndexComponentsSheet } from './IndexComponentsSheet';

/** A funding rate of the API (percent, 6 decimals) shown with 4 decimals: "0.010000" -> "0.0100%". */
export function fundingPercent(rate: string): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(rate);
  if (!m) return EMPTY_VALUE;
  return `${formatFixed(rate, 4)}%`;
}

/** The strip. */
export function MarkStrip({ market }: { market: ContractMarket }) {
  const { t } = useTranslation('contract');
  const now = useNow();
  const d = market.priceDecimals;
  const [components, setComponents] = useState(false);
  return (
    <dl className="ct-strip num" aria-label={market.symbol}>
      <div>
        <dt>{t('markPrice')}</dt>
        <dd data-testid="mark-price">{market.markPrice ? formatFixed(market.markPrice, d, { group: true }) : EMPTY_VALUE}</dd>
      </div>
      <div>
        <dt>{t('indexPrice')}</dt>
        <dd>
          <button type="button" className="ct-index-btn" aria-label={t('indexComponents.open')} onClick={() => setComponents(true)}>
            <span data-testid="index-price">{market.indexPrice ? formatFixed(market.indexPrice, d, { group: true }) : EMPTY_VALUE}</span>
          </button>
          {components && <IndexComponentsSheet market={market} onClose={() => setComponents(false)} />}
        </dd>
      </div>
      <div>
        <dt>{t('fundingCountdown')}</dt>
        <dd>
          <span className={trendClass(trendOf(market.fundingRate))} data-testid="funding-rate">
            {fundingPercent(market.fundingRate)}
          </span>{' '}
          / <span data-testid="funding-countdown">{market.nextFundingTime ? formatCountdown(market.nextFundingTime, now) : EMPTY_VALUE}</span>
        </dd>
      </div>
    </dl>
  );
}
