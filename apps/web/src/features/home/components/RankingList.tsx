/**
 * Ranking list with three tabs (spec section 2): by change (UPDOWN), by volume (VOLUME) and new
 * coins (PROJECT). Rows show pair, 24 h volume, price with CNY, and the change badge coloured by
 * the user's convention. Only the visible tab is polled. The tab strip is our plain SegTabs (no
 * antd Tabs: its sliding-line animation was the home page's largest CPU cost).
 */
import { memo, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pair } from '@exchange/api';
import { formatCny, formatCompact, formatFixed, formatPercent, trendOf } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useIndexCoin, type IndexCoinType } from '../api/index-coin';
import { useOpenPair } from '../hooks/use-open-pair';

const RANKINGS: readonly Exclude<IndexCoinType, 'TOP'>[] = ['UPDOWN', 'VOLUME', 'PROJECT'];

// Memoised: a 5 s poll returns the unchanged pairs as the same objects (TanStack Query's structural sharing), so
// only the rows whose figures moved render again.
const Row = memo(function Row({ p, kind }: { p: Pair; kind: IndexCoinType }) {
  const { t } = useTranslation('home');
  const openPair = useOpenPair();
  const lang = useAppStore((s) => s.currentLangue);
  const trend = trendOf(p.updown);
  const badge = kind === 'VOLUME' ? formatCompact(p.quoteVolume, lang) : formatPercent(p.updown);
  return (
    <li>
      <button type="button" className="rank-row" aria-label={p.pairsName} onClick={() => openPair(p)}>
        <div className="rank-name">
          <div>
            <b>{p.tokenCur}</b>
            <span className="text-3"> /{p.mainCur}</span>
            {p.isNew && <span className="rank-new">{t('new')}</span>}
          </div>
          <div className="rank-vol text-3 num">
            {t('vol24h')} {formatCompact(p.volume, lang)}
          </div>
        </div>
        <div className="rank-price">
          <div className="num">{formatFixed(p.price, p.priceDecimals, { group: true })}</div>
          <div className="text-3 num">≈{formatCny(p.chPrice)}</div>
        </div>
        <div className={`rank-badge num ${kind === 'VOLUME' ? 'bg-vol' : trend === 'up' ? 'bg-up' : trend === 'down' ? 'bg-down' : 'bg-flat'}`}>{badge}</div>
      </button>
    </li>
  );
});

/**
 * One tab's list. Its rows render from a deferred copy of the answer (useDeferredValue): an answer arrives as an
 * urgent update (TanStack Query's store), which React renders in one task; the rows, the list's real work, then
 * render in a transition that yields to the browser every few milliseconds instead of blocking it (the home screen's
 * Total Blocking Time). Until the deferred copy has the first answer, the skeleton stays.
 */
function RankingPanel({ kind }: { kind: IndexCoinType }) {
  const { t } = useTranslation('home');
  const q = useIndexCoin(kind);
  const rows = useDeferredValue(q.data);
  if (isAwaiting(q) || (q.data !== undefined && rows === undefined)) return <ListSkeleton />;
  if (!rows || rows.length === 0) return q.isError ? <LoadFailed compact error={q.error} onRetry={() => void q.refetch()} /> : <EmptyState />;
  return (
    <ul className="rank-list" aria-label={t(`rank.${kind}`)}>
      <li className="rank-head text-3">
        <span>{t('colPair')}</span>
        <span>{t('colPrice')}</span>
        <span>{kind === 'VOLUME' ? t('colVolume') : t('colChange')}</span>
      </li>
      {rows.map((p) => (
        <Row key={`${p.type}:${p.pairsName}`} p={p} kind={kind} />
      ))}
    </ul>
  );
}

/** The ranking card. */
export const RankingList = memo(function RankingList() {
  const { t } = useTranslation('home');
  const [active, setActive] = useState<Exclude<IndexCoinType, 'TOP'>>('UPDOWN');
  return (
    <section className="home-rank" aria-label={t('ranking')}>
      <SegTabs
        items={RANKINGS.map((k) => ({ key: k, label: t(`rank.${k}`) }))}
        active={active}
        onChange={setActive}
        label={t('ranking')}
        classPrefix="home-rank"
      />
      <RankingPanel key={active} kind={active} />
    </section>
  );
});
