/**
 * Pieces shared by the pair detail page and the full-screen chart (/kline): the page title (pair and its market
 * tag) and the tabs of the spec's chart intervals (section 2: 1, 5, 15, 30 minutes, 1 hour, 1 day, 1 week).
 */
import type { KlinePeriod, MarketType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { KLINE_INTERVALS } from '../lib/kline-math';

/** "BTC/USDT" with its "Spot" or "Perpetual" tag. */
export function PairTitle({ pairsName, type }: { pairsName: string; type: MarketType }) {
  const { t } = useTranslation('quotes');
  return (
    <span className="qt-detail-title">
      {pairsName}
      <span className="qt-tag">{type === 'SPOT' ? t('spot') : t('perpetual')}</span>
    </span>
  );
}

/** The chart interval tabs. */
export function IntervalTabs({ period, onChange }: { period: KlinePeriod; onChange: (p: KlinePeriod) => void }) {
  const { t } = useTranslation('quotes');
  return (
    <SegTabs
      classPrefix="qt"
      label={t('chartIntervals')}
      variant="pill"
      className="qt-intervals"
      items={KLINE_INTERVALS.map((p) => ({ key: p, label: t(`interval.${p}`) }))}
      active={period}
      onChange={onChange}
    />
  );
}
