/**
 * /assets/capitalRecords?type=coinCharging|withdrawCoin|transfer (spec section 2): tabs of the three record types
 * (the tab is kept in the query), each an endless list (20 a page, the next page loads near the bottom) of rows with
 * coin (with the network of a deposit or withdrawal), amount, state and time; a row opens /assets/capitalRecordsDetail?type=&id=. A coin filter (all, or one coin of
 * the wallet's catalogue) is kept in the query too (`coin`).
 */
import { InfiniteScroll } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DepositRecord, RecordType, TransferRecord, WithdrawRecord } from '@exchange/api';
import { formatCoin, formatDateTime } from '../../../shared/format';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { CoinIcon } from '../../../shared/ui/CoinIcon';
import { useRecordPages } from '../api/get-records';
import { useCoins } from '../api/get-coins';
import '../wallet.css';

const TYPES: readonly RecordType[] = ['coinCharging', 'withdrawCoin', 'transfer'];

/** The record type of the query (deposits unless it names another). */
export function recordTypeOf(v: string | null): RecordType {
  return TYPES.includes(v as RecordType) ? (v as RecordType) : 'coinCharging';
}

export default function CapitalRecordsPage() {
  const { t } = useTranslation('wallet');
  const [params, setParams] = useSearchParams();
  const type = recordTypeOf(params.get('type'));
  const coin = (params.get('coin') ?? '').toUpperCase();
  const coins = useCoins();
  const setQuery = (next: { type: RecordType; coin: string }) => setParams(next.coin ? next : { type: next.type }, { replace: true });
  return (
    <div className="wl-page">
      <PageHeader title={t('records.title')} fallback="/assets" />
      <SegTabs
        items={TYPES.map((k) => ({ key: k, label: t(`records.tab.${k}`) }))}
        active={type}
        onChange={(k) => setQuery({ type: k, coin })}
        label={t('records.title')}
        classPrefix="wl"
        variant="line"
        className="wl-records-tabs"
      />
      <div className="wl-coin-filter" role="group" aria-label={t('records.coinFilter')}>
        {['', ...(coins.data ?? []).map((c) => c.coin)].map((c) => (
          <button
            key={c || 'all'}
            type="button"
            className={c === coin ? 'wl-chip wl-chip-on' : 'wl-chip'}
            aria-pressed={c === coin}
            onClick={() => setQuery({ type, coin: c })}
          >
            {c || t('records.allCoins')}
          </button>
        ))}
      </div>
      <LoginFirst>
        <RecordList key={`${type}:${coin}`} type={type} coin={coin} />
      </LoginFirst>
    </div>
  );
}

function RecordList({ type, coin }: { type: RecordType; coin: string }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const q = useRecordPages(type, coin);
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError && !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const pages = q.data?.pages ?? [];
  type AnyRecord = DepositRecord | WithdrawRecord | TransferRecord;
  const rows = pages.flatMap((p): AnyRecord[] => (type === 'coinCharging' ? p.deposits : type === 'withdrawCoin' ? p.withdrawals : p.transfers));
  if (rows.length === 0) return <EmptyState text={t('records.empty')} />;
  return (
    <>
      <ul className="wl-records" aria-label={t(`records.tab.${type}`)}>
        {rows.map((r) => (
          <li key={r.id}>
            <button type="button" className="wl-record" onClick={() => navigate(`/assets/capitalRecordsDetail?type=${type}&id=${encodeURIComponent(r.id)}`)}>
              <RecordRow type={type} r={r} />
            </button>
          </li>
        ))}
      </ul>
      <InfiniteScroll
        hasMore={!!q.hasNextPage}
        loadMore={async () => {
          await q.fetchNextPage();
        }}
      >
        {q.hasNextPage ? t('records.loading') : t('records.end')}
      </InfiniteScroll>
    </>
  );
}

/** One row: coin (and the network code of a deposit or withdrawal), signed amount, state (or the accounts of a transfer), time. */
function RecordRow({ type, r }: { type: RecordType; r: DepositRecord | WithdrawRecord | TransferRecord }) {
  const { t } = useTranslation('wallet');
  let amount = formatCoin(r.amount, r.coin, { exact: true });
  let state: string;
  let tone = 'credited';
  if (type === 'coinCharging') {
    const d = r as DepositRecord;
    amount = `+${formatCoin(d.amount, d.coin, { exact: true })}`;
    state =
      d.status === 'CONFIRMING'
        ? `${t('depositStatus.CONFIRMING')} ${Math.min(d.confirmations, d.confirmationsRequired)}/${d.confirmationsRequired}`
        : t(`depositStatus.${d.status}`);
    tone = d.status.toLowerCase();
  } else if (type === 'withdrawCoin') {
    const w = r as WithdrawRecord;
    amount = `-${formatCoin(w.amount, w.coin, { exact: true })}`;
    state = t(`withdrawStatus.${w.status}`);
    tone = w.status === 'COMPLETED' ? 'credited' : w.status === 'REJECTED' || w.status === 'FAILED' ? 'failed' : 'confirming';
  } else {
    const x = r as TransferRecord;
    state = `${t(`account.${x.from}`)} → ${t(`account.${x.to}`)}`;
    tone = 'plain';
  }
  return (
    <>
      <CoinIcon coin={r.coin} size={28} />
      <span className="wl-record-main">
        <span className="wl-record-top">
          <span className="wl-amount-net">
            <span className="wl-coin-code">{r.coin}</span>
            {'chain' in r && <span className="wl-tag wl-net-code">{r.chain}</span>}
          </span>
          <span className="wl-amount">{amount}</span>
        </span>
        <span className="wl-record-bottom">
          <span className="wl-time">{formatDateTime(r.createdAt)}</span>
          <span className={`wl-state wl-state-${tone}`}>{state}</span>
        </span>
      </span>
    </>
  );
}
