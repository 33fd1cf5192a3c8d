/**
 * /assets/assetDetail?coin=..&type=ASSETS|SPOT|CONTRACT|OTC (login required): one coin in one account:
 * total (current), available, frozen, converted CNY and USDT, at the coin's display precision; entry
 * buttons (deposit, withdraw, transfer, records) and, in the spot account, a link to trade the coin
 * against USDT.
 */
import { Button } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatCny, formatCoin } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { CoinIcon } from '../../../shared/ui/CoinIcon';
import { useAssets } from '../api/get-assets';
import { EyeButton } from '../components/EyeButton';
import { AssetActions } from '../components/AssetActions';
import { useBalancePushes } from '../hooks/use-balance-pushes';
import { useHideAmounts } from '../hooks/use-hide-amounts';
import { ACCOUNT_TABS, accountOf, masked, type AccountTab } from '../lib/assets-view';
import '../assets.css';

/** The coin detail page. */
export default function AssetDetailPage() {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const coin = (params.get('coin') ?? '').toUpperCase();
  const typeParam = (params.get('type') ?? 'SPOT').toUpperCase() as AccountTab;
  const type: AccountTab = ACCOUNT_TABS.includes(typeParam) ? typeParam : 'SPOT';
  const setPairsName = useAppStore((s) => s.setPairsName);
  const q = useAssets();
  const [hidden, toggleHidden] = useHideAmounts();
  useBalancePushes();
  const item = q.data ? accountOf(q.data.accounts, type).items.find((i) => i.coin === coin) : undefined;
  const accountName = t(`account.${type}`);
  const rows: [string, string][] = item
    ? [
        [t('available'), formatCoin(item.available, item.coin)],
        [t('frozen'), formatCoin(item.frozen, item.coin)],
        [t('converted'), formatCny(item.convertedCny)],
        [t('convertedUsdt'), formatCoin(item.convertedUsdt, 'USDT')],
      ]
    : [];
  return (
    <div className="as-page">
      <PageHeader title={t('detailTitle', { coin: coin || '--', account: accountName })} fallback="/assets" />
      {q.isLoading ? (
        <InlineLoading />
      ) : q.isError && !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : !item ? (
        <EmptyState text={t('coinNotFound')} />
      ) : (
        <>
          <section className="as-total as-detail" aria-label={t('coinIn', { coin, account: accountName })}>
            <div className="as-detail-coin">
              <CoinIcon coin={coin} size={32} />
              <b>{coin}</b>
              <EyeButton hidden={hidden} onToggle={toggleHidden} />
            </div>
            <div className="as-total-label">{t('current')}</div>
            <div className="as-total-value num" data-testid="coin-current">
              {masked(formatCoin(item.current, item.coin), hidden)}
            </div>
            <dl className="as-detail-grid num">
              {rows.map(([k, v]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{masked(v, hidden)}</dd>
                </div>
              ))}
            </dl>
            <AssetActions coin={coin} />
          </section>
          {type === 'SPOT' && coin !== 'USDT' && (
            <div className="as-trade">
              <Button
                block
                color="primary"
                onClick={() => {
                  setPairsName(`${coin}/USDT`);
                  navigate('/transaction');
                }}
              >
                {t('trade')} {coin}/USDT
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
