/**
 * The index price's components (spec section 9, as Binance's "Index price components"): a sheet opened from the
 * contract's index price listing each source of the last index tick, its price, its weight in the average and what
 * the rule did with it (used, clamped to the median +-3%, stale, jump, invalid), above a line saying where the index
 * comes from (outside exchanges, or the demo's replayed market and our own spot market) and, when stale, that the
 * contract is paused.
 */
import { Popup } from 'antd-mobile';
import type { ContractMarket, IndexComponent } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatDateTime, formatPrice, mulDecimal } from '../../../shared/format';
import { useIndexComponents } from '../api/get-index-components';

/** The outside exchanges' display names (proper nouns, the same in every language). */
const EXCHANGE_NAMES: Record<string, string> = {
  binance: 'Binance',
  okx: 'OKX',
  bybit: 'Bybit',
  coinbase: 'Coinbase',
  kraken: 'Kraken',
  kucoin: 'KuCoin',
  gate: 'Gate',
  bitget: 'Bitget',
  mexc: 'MEXC',
  htx: 'HTX',
};

/** The replay's own sources, named in the user's language. */
const OWN_SOURCES = ['reference', 'lastTrade', 'mid', 'pinned'];

/** A weight fraction ("0.33333333") as a percent with 2 decimals, rounded down ("33.33%"). */
export function weightPercent(weight: string): string {
  return `${mulDecimal(weight, '100', 2, 'down')}%`;
}

/** The sheet; `onClose` hides it. */
export function IndexComponentsSheet({ market, onClose }: { market: Pick<ContractMarket, 'symbol' | 'priceDecimals'>; onClose: () => void }) {
  const { t } = useTranslation('contract');
  const q = useIndexComponents(market.symbol, true);
  const c = q.data;
  const title = t('indexComponents.title');
  const sourceName = (x: IndexComponent) =>
    OWN_SOURCES.includes(x.source) ? t(`indexComponents.sources.${x.source}`) : (EXCHANGE_NAMES[x.source] ?? x.source);
  const used = c ? c.components.filter((x) => x.status === 'used' || x.status === 'clamped').length : 0;
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={title} data-testid="index-components">
        <h2>{title}</h2>
        {!c ? (
          <p className="ct-sheet-hint">{q.isError ? t('indexComponents.failed') : t('indexComponents.loading')}</p>
        ) : (
          <>
            <p className="ct-sheet-hint" data-testid="index-mode">
              {c.mode === 'live' ? t('indexComponents.live', { used, total: c.components.length }) : t('indexComponents.replay')}
            </p>
            {c.stale && (
              <p className="ct-index-stale" role="alert" data-testid="index-stale">
                {t('indexComponents.stale')}
              </p>
            )}
            {c.components.length === 0 ? (
              <p className="ct-sheet-hint">{t('indexComponents.none')}</p>
            ) : (
              <table className="ct-index-table num">
                <thead>
                  <tr>
                    <th scope="col">{t('indexComponents.source')}</th>
                    <th scope="col">{t('indexComponents.price')}</th>
                    <th scope="col">{t('indexComponents.weight')}</th>
                    <th scope="col">{t('indexComponents.status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {c.components.map((x) => (
                    <tr key={x.source} data-testid={`index-source-${x.source}`} className={x.weight === '0' ? 'ct-index-dropped' : undefined}>
                      <td>{sourceName(x)}</td>
                      <td>{x.price ? formatPrice(x.price, market.priceDecimals) : EMPTY_VALUE}</td>
                      <td>{weightPercent(x.weight)}</td>
                      <td>{t(`indexComponents.statuses.${x.status}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <p className="ct-sheet-hint" data-testid="index-total">
              {t('indexComponents.total', { price: c.price ? formatPrice(c.price, market.priceDecimals) : EMPTY_VALUE })}
              {c.time > 0 ? ` · ${formatDateTime(c.time)}` : ''}
            </p>
          </>
        )}
      </div>
    </Popup>
  );
}
