/**
 * Under the contract order form: the tabs Positions (every open position of the user, live at the mark prices) and
 * Current orders (open orders of the market with revocable hands and Cancel), Conditional (pending stop and trailing
 * orders of the market, and their history: ConditionalOrders), their counts, the contract account's
 * line (margin balance, available, risk level) and the link to all contract orders. Visitors see a login prompt.
 */
import { useState, type ReactNode } from 'react';
import { Button } from 'antd-mobile';
import { Link, useNavigate } from 'react-router';
import type { ContractMarket, ContractOrder } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { formatFixed } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useContractAccount } from '../api/get-account';
import { usePositions } from '../api/get-positions';
import { useContractOrders } from '../api/get-orders';
import { useCancelContractOrder } from '../api/cancel-order';
import { atMark, rulesFromMarket } from '../lib/contract-form';
import { liveMarginBalance, marksOf } from '../lib/margin-balance';
import { PositionCard } from './PositionCard';
import { ContractOrderCard } from './ContractOrderCard';
import { ConditionalOrders } from './ConditionalOrders';
import { useContractConditional } from '../api/get-conditional';

/** Props of PositionTabs. */
export interface PositionTabsProps {
  /** the market on screen (live mark price) */
  market: ContractMarket;
  /** every market (rules and mark prices of the other positions) */
  markets: readonly ContractMarket[];
}

/** The query state a tab's list needs: the first answer awaited, a failure without data, the records. */
interface ListedQuery<T> {
  isPending: boolean;
  fetchStatus: 'fetching' | 'paused' | 'idle';
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  data?: T[];
}

/** A tab's list: the skeleton until the first answer, LoadFailed on a failure without data, else the empty text or the list. */
function Listed<T>({ q, empty, children }: { q: ListedQuery<T>; empty: string; children: (records: T[]) => ReactNode }) {
  if (isAwaiting(q)) return <ListSkeleton rows={2} />;
  if (q.isError && !q.data) return <LoadFailed compact error={q.error} onRetry={() => void q.refetch()} />;
  const records = q.data ?? [];
  if (records.length === 0) return <EmptyState text={empty} />;
  return <>{children(records)}</>;
}

/** The account's line; the margin balance is wallet balance + the positions' unrealized PnL at the live marks. */
function AccountLine({ marks }: { marks: ReadonlyMap<string, string> }) {
  const { t } = useTranslation('contract');
  const a = useContractAccount().data;
  const positions = usePositions().data;
  if (!a) return null;
  return (
    <div className="ct-account num" aria-label={t('accountTitle')}>
      <span>
        {t('marginBalance')}
        <b data-testid="margin-balance">{formatFixed(liveMarginBalance(a, positions, marks), 2, { group: true })}</b>
      </span>
      <span>
        {t('available')}
        <b>{formatFixed(a.availableBalance, 2, { group: true, mode: 'down' })}</b>
      </span>
      <span>
        {t('riskLevel')}
        <b data-testid="risk-level">{a.riskLevel}%</b>
      </span>
    </div>
  );
}

function Positions({ market, markets }: PositionTabsProps) {
  const { t } = useTranslation('contract');
  const q = usePositions();
  const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
  bySymbol.set(market.symbol, market);
  return (
    <>
      <AccountLine marks={marksOf([...bySymbol.values()])} />
      <Listed q={q} empty={t('noPositions')}>
        {(records) => (
          <ul className="ct-list" aria-label={t('positions')}>
            {records.map((p) => {
              const m = bySymbol.get(p.symbol);
              return <PositionCard key={p.symbol} position={m?.markPrice ? atMark(p, m.markPrice) : p} rules={m ? rulesFromMarket(m) : undefined} />;
            })}
          </ul>
        )}
      </Listed>
    </>
  );
}

/**
 * The market's open plain orders. A pending conditional order is an open order of the engine too (getOrders lists it
 * as the MARKET or LIMIT order it becomes): `conditional` (the pending ones' order numbers) keeps it out of this list,
 * which would show it without its trigger; the Conditional tab shows it.
 */
function OpenOrders({ market, conditional }: { market: ContractMarket; conditional: ReadonlySet<string> }) {
  const { t } = useTranslation('contract');
  const q = useContractOrders('unmatched', market.symbol);
  const cancel = useCancelContractOrder();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const onCancel = (o: ContractOrder) => {
    setCancelling(o.orderId);
    cancel.mutate(o.orderId, { onSuccess: () => showToast(t('orderCancelled')), onSettled: () => setCancelling(null) });
  };
  return (
    <Listed q={{ ...q, data: q.data?.records.filter((o) => !conditional.has(o.orderId)) }} empty={t('noOrders')}>
      {(records) => (
        <ul className="ct-list" aria-label={t('currentOrders')}>
          {records.map((o) => (
            <ContractOrderCard key={o.orderId} order={o} priceDecimals={market.priceDecimals} onCancel={onCancel} cancelling={cancelling === o.orderId} />
          ))}
        </ul>
      )}
    </Listed>
  );
}

/** The tabs. */
export function PositionTabs({ market, markets }: PositionTabsProps) {
  const { t } = useTranslation('contract');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const [tab, setTab] = useState<'positions' | 'orders' | 'conditional'>('positions');
  const positions = usePositions();
  const open = useContractOrders('unmatched', market.symbol);
  const pendingConditional = useContractConditional('open', market.symbol);
  const conditionalIds = new Set((pendingConditional.data?.records ?? []).map((o) => o.orderId));
  const plainOpen = open.data ? Math.max(0, open.data.total - (pendingConditional.data?.total ?? 0)) : undefined;
  const count = (label: string, n: number | undefined) => (isLogin ? `${label} (${n ?? 0})` : label);
  return (
    <section className="ct-orders" aria-label={t('orderTabs')}>
      <div className="ct-orders-head">
        <SegTabs
          classPrefix="ct"
          label={t('orderTabs')}
          items={[
            { key: 'positions' as const, label: count(t('positions'), positions.data?.length) },
            { key: 'orders' as const, label: count(t('currentOrders'), plainOpen) },
            { key: 'conditional' as const, label: count(t('cond.tab'), pendingConditional.data?.total) },
          ]}
          active={tab}
          onChange={setTab}
        />
        <Link to="/contract/allContract" className="ct-all-link" aria-label={t('allOrders')}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 3h9l4 4v14H6z M14 3v5h5 M9 12h7M9 16h7" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinejoin="round" />
          </svg>
        </Link>
      </div>
      <div role="tabpanel">
        {!isLogin ? (
          <EmptyState
            text={t('loginToSee')}
            action={
              <Button size="small" color="primary" onClick={() => navigate('/login?redirect=%2Fcontract')}>
                {t('logIn')}
              </Button>
            }
          />
        ) : tab === 'positions' ? (
          <Positions market={market} markets={markets} />
        ) : tab === 'orders' ? (
          <OpenOrders market={market} conditional={conditionalIds} />
        ) : (
          <ConditionalOrders market={market} />
        )}
      </div>
    </section>
  );
}
