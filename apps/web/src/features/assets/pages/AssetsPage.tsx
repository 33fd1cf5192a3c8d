/**
 * /assets and /assets/assetsIndex (login required; spec section 2 "Assets overview"): total converted
 * in CNY and USDT, entry buttons (deposit, withdraw, transfer, records), and the accounts
 * (deposit/withdraw, spot, contract, fiat/OTC, other) as tabs, each with its total and its coins
 * (available, frozen, current, converted CNY); the "Hide small balances" check (on by default: zero
 * balances and those below SMALL_BALANCE_USDT are hidden) and the eye toggle hiding amounts. The
 * account tabs scroll sideways where they do not fit (320 px), with a fade on the side that has more.
 * Coins open /assets/assetDetail?coin=..&type=... Small entries at the end open /exchange (convert), /mortgage (fixed
 * savings), /orderManger and /reserves (proof of reserves).
 */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatCny, formatCoin } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useAssets } from '../api/get-assets';
import { EyeButton } from '../components/EyeButton';
import { AssetActions } from '../components/AssetActions';
import { CoinRow } from '../components/CoinRow';
import { useBalancePushes } from '../hooks/use-balance-pushes';
import { useHideAmounts, useHideSmall } from '../hooks/use-hide-amounts';
import { useScrollEdges } from '../hooks/use-scroll-edges';
import { ACCOUNT_TABS, SMALL_BALANCE_USDT, accountOf, masked, visibleItems, type AccountTab } from '../lib/assets-view';
import '../assets.css';

/** The assets overview page. */
export default function AssetsPage() {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = useAssets();
  const [hidden, toggleHidden] = useHideAmounts();
  const [hideSmall, setHideSmall] = useHideSmall();
  useBalancePushes();
  const tabParam = params.get('account') as AccountTab | null;
  const tab: AccountTab = tabParam && ACCOUNT_TABS.includes(tabParam) ? tabParam : 'SPOT';
  const data = q.data;
  const account = accountOf(data?.accounts ?? [], tab);
  const items = visibleItems(account.items, hideSmall);
  const [tabsWrap, edges] = useScrollEdges(tab);

  return (
    <div className="as-page">
      <header className="as-header">
        <h1>{t('title')}</h1>
      </header>
      <section className="as-total" aria-label={t('totalCny')}>
        <div className="as-total-label">
          {t('totalCny')}
          <EyeButton hidden={hidden} onToggle={toggleHidden} />
        </div>
        <div className="as-total-value num" data-testid="total-cny">
          {data ? masked(formatCny(data.totalCny), hidden) : '--'}
        </div>
        <div className="as-total-sub num">{data ? masked(t('approxUsdt', { v: formatCoin(data.totalUsdt, 'USDT') }), hidden) : ''}</div>
        <AssetActions />
      </section>
      <div ref={tabsWrap} className={`as-tabs-wrap${edges.start ? ' as-more-start' : ''}${edges.end ? ' as-more-end' : ''}`}>
        <SegTabs
          classPrefix="as"
          label={t('accounts')}
          items={ACCOUNT_TABS.map((k) => ({ key: k, label: t(`account.${k}`) }))}
          active={tab}
          onChange={(k) => setParams({ account: k }, { replace: true })}
        />
      </div>
      <div className="as-acct-head">
        <div>
          <div className="as-k">{t('accountTotal', { account: t(`account.${tab}`) })}</div>
          <div className="as-acct-total num">{data ? masked(formatCny(account.totalCny), hidden) : '--'}</div>
        </div>
        <label className="as-small" title={t('hideSmallHint', { v: SMALL_BALANCE_USDT })}>
          <input type="checkbox" checked={hideSmall} onChange={(e) => setHideSmall(e.target.checked)} />
          <span className="as-small-box" aria-hidden="true" />
          <span>{t('hideSmall')}</span>
        </label>
      </div>
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError && !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState text={tab === 'OTHER' ? t('otherEmpty') : account.items.length > 0 ? t('allSmallHidden', { v: SMALL_BALANCE_USDT }) : t('noAssets')} />
      ) : (
        <ul className="as-coins" aria-label={t(`account.${tab}`)}>
          {items.map((i) => (
            <CoinRow key={i.coin} item={i} hidden={hidden} onOpen={(coin) => navigate(`/assets/assetDetail?coin=${encodeURIComponent(coin)}&type=${tab}`)} />
          ))}
        </ul>
      )}
      {tab === 'OTC' && (
        <button type="button" className="as-por as-otc-link" onClick={() => navigate('/transaction/transactionFabi')}>
          {t('otcTrade')}
        </button>
      )}
      <button type="button" className="as-por" onClick={() => navigate('/exchange')}>
        {t('convert')}
      </button>
      <button type="button" className="as-por" onClick={() => navigate('/mortgage')}>
        {t('savings')}
      </button>
      <button type="button" className="as-por" onClick={() => navigate('/orderManger')}>
        {t('orders')}
      </button>
      <button type="button" className="as-por" onClick={() => navigate('/reserves')}>
        {t('proofOfReserves')}
      </button>
    </div>
  );
}
