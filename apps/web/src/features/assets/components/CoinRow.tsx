/**
 * One coin of an account: icon, name, total (current), available, frozen and converted CNY; opens its detail.
 * Amounts at the coin's display precision (formatCoin: USDT "7,902.14", BTC "0.01542", zero "0.00" / "0").
 */
import type { AssetItem } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatCny, formatCoin } from '../../../shared/format';
import { CoinIcon } from '../../../shared/ui/CoinIcon';
import { masked } from '../lib/assets-view';

/** Props of CoinRow. */
export interface CoinRowProps {
  item: AssetItem;
  hidden: boolean;
  onOpen: (coin: string) => void;
}

/** The coin row. */
export function CoinRow({ item, hidden, onOpen }: CoinRowProps) {
  const { t } = useTranslation('assets');
  const cells: [string, string][] = [
    [t('available'), formatCoin(item.available, item.coin)],
    [t('frozen'), formatCoin(item.frozen, item.coin)],
    [t('converted'), formatCny(item.convertedCny, { symbol: false })],
  ];
  return (
    <li className="as-coin">
      <button type="button" className="as-coin-btn" onClick={() => onOpen(item.coin)} aria-label={item.coin}>
        <span className="as-coin-top">
          <CoinIcon coin={item.coin} size={24} />
          <b className="as-coin-name">{item.coin}</b>
          <span className="as-coin-current num">{masked(formatCoin(item.current, item.coin), hidden)}</span>
        </span>
        <span className="as-coin-grid num">
          {cells.map(([k, v]) => (
            <span key={k}>
              <span className="as-k">{k}</span>
              <span className="as-v">{masked(v, hidden)}</span>
            </span>
          ))}
        </span>
      </button>
    </li>
  );
}
