/**
 * Price block of a pair: last price (coloured by the 24 h change), CNY price, signed change, and the
 * 24 h high, low and volume (plus index price for contracts), all at the market's precision.
 */
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatCny, formatCompact, formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { trendClass } from '../../../shared/theme';
import { useAppStore } from '../../../shared/storage';

/** The ticker block. */
export function TickerHeader({ pair }: { pair: Pair }) {
  const { t } = useTranslation('quotes');
  const lang = useAppStore((s) => s.currentLangue);
  const trend = trendOf(pair.updown);
  const d = pair.priceDecimals;
  const stats: [string, string][] = [
    [t('high'), formatFixed(pair.high, d, { group: true })],
    [t('low'), formatFixed(pair.low, d, { group: true })],
    [t('volume'), formatCompact(pair.volume, lang)],
  ];
  if (pair.type === 'CONTRACT' && pair.indexPrice) stats.unshift([t('indexPrice'), formatFixed(pair.indexPrice, d, { group: true })]);
  else stats.push([t('quoteVolume'), formatCompact(pair.quoteVolume, lang)]);
  return (
    <section className="qt-ticker" aria-label={pair.pairsName}>
      <div className="qt-ticker-main">
        <div className={`qt-ticker-price num ${trendClass(trend)}`} data-testid="last-price">
          {formatFixed(pair.price, d, { group: true })}
        </div>
        <div className="qt-ticker-sub num">
          <span>≈ {formatCny(pair.chPrice)}</span>
          <span className={trendClass(trend)} data-testid="change-24h">
            {formatPercent(pair.updown)}
          </span>
        </div>
        {pair.demoData && <div className="qt-demo-tag">{t('demoData')}</div>}
      </div>
      <dl className="qt-ticker-stats">
        {stats.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd className="num">{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
