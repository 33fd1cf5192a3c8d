/**
 * /assets/chooseCoin?type=coinCharging|withdrawCoin (spec section 2: "Coin chooser with search"): every coin of the
 * wallet (getCoins) with a search over code and name; a coin opens the deposit (default) or withdraw screen named by
 * `type`, with `?coin=`. Coins without an available network are listed too: their screens say so.
 */
import { useMemo, useState } from 'react';
import { SearchBar } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { CoinIcon } from '../../../shared/ui/CoinIcon';
import { useCoins, type WalletCoin } from '../api/get-coins';
import '../wallet.css';

/** The chooser's target screen from the query (deposit unless it says withdrawCoin). */
export function chooserTarget(type: string | null): 'coinCharging' | 'withdrawCoin' {
  return type === 'withdrawCoin' ? 'withdrawCoin' : 'coinCharging';
}

/** Coins whose code or name contains `q` (case-insensitive), in the list's order. */
export function filterCoins(coins: readonly WalletCoin[], q: string): WalletCoin[] {
  const s = q.trim().toLowerCase();
  if (!s) return [...coins];
  return coins.filter((c) => c.coin.toLowerCase().includes(s) || c.name.toLowerCase().includes(s));
}

export default function ChooseCoinPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = chooserTarget(params.get('type'));
  const [q, setQ] = useState('');
  const coins = useCoins();
  const list = useMemo(() => filterCoins(coins.data ?? [], q), [coins.data, q]);
  return (
    <div className="wl-page">
      <PageHeader title={t(target === 'withdrawCoin' ? 'chooseCoin.withdrawTitle' : 'chooseCoin.depositTitle')} fallback="/assets" />
      <div className="wl-search">
        <SearchBar placeholder={t('chooseCoin.search')} value={q} onChange={setQ} aria-label={t('chooseCoin.search')} />
      </div>
      {isAwaiting(coins) ? (
        <ListSkeleton />
      ) : coins.isError ? (
        <LoadFailed error={coins.error} onRetry={() => void coins.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState text={t('chooseCoin.none')} />
      ) : (
        <ul className="wl-coin-list" aria-label={t('chooseCoin.list')}>
          {list.map((c) => (
            <li key={c.coin}>
              <button type="button" className="wl-coin-item" onClick={() => navigate(`/assets/${target}?coin=${encodeURIComponent(c.coin)}`)}>
                <CoinIcon coin={c.coin} size={28} />
                <span className="wl-coin-code">{c.coin}</span>
                <span className="wl-coin-name">{c.name}</span>
                {!c.chains.some((ch) => ch.available) && <span className="wl-tag">{t('chooseCoin.noNetwork')}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
