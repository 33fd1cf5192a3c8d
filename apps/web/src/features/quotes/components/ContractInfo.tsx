/**
 * The perpetual contract's prices on the pair detail (type=contract; the index price is in the ticker above):
 * mark price, the predicted funding rate and the countdown to the next funding, live from the contractMark pushes (once a second).
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ContractMarkTick } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatCountdown, formatFixed, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { useWsChannel, wsQueryKeys } from '../../../shared/ws-client';
import { useContractMarketInfo } from '../api/get-contract-market';

/** The mark, index and funding block of `symbol`. */
export function ContractInfo({ symbol }: { symbol: string }) {
  const { t } = useTranslation('quotes');
  const info = useContractMarketInfo(symbol, true);
  useWsChannel({ channel: 'contractMark', pairsName: symbol });
  const tick = useQuery<ContractMarkTick>({
    queryKey: wsQueryKeys.contract('contractMark', symbol),
    queryFn: () => new Promise(() => {}),
    enabled: false,
    staleTime: Infinity,
  }).data;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const m = info.data;
  if (!m) return null;
  const fresh = tick && tick.time >= m.time ? tick : null;
  const mark = fresh?.markPrice ?? m.markPrice;
  const rate = fresh?.fundingRate ?? m.fundingRate;
  const next = fresh?.nextFundingTime ?? m.nextFundingTime;
  const d = m.priceDecimals;
  return (
    <dl className="qt-contract-info num" aria-label={t('perpetual')}>
      <div>
        <dt>{t('markPrice')}</dt>
        <dd data-testid="detail-mark">{mark ? formatFixed(mark, d, { group: true }) : EMPTY_VALUE}</dd>
      </div>
      <div>
        <dt>{t('fundingRate')}</dt>
        <dd className={trendClass(trendOf(rate))} data-testid="detail-funding">
          {rate ? `${formatFixed(rate, 4)}%` : EMPTY_VALUE}
        </dd>
      </div>
      <div>
        <dt>{t('nextFunding')}</dt>
        <dd data-testid="detail-countdown">{next ? formatCountdown(next, now) : EMPTY_VALUE}</dd>
      </div>
    </dl>
  );
}
