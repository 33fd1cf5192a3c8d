/**
 * The fill of an order shown at once (as Binance does): the outcome (filled, partially filled
 * with the rest open or expired, not filled), the order (type, side, pair), the filled quantity, the average
 * price, the total and the fee, and what is left. Prices and quantities at the market's display precision with
 * thousands separators; the total (and a rest in the quote coin) at the asset's display precision, the fee with every
 * digit (the rule of shared/format: formatPrice, formatQty, formatCoin).
 */
import { Button } from 'antd-mobile';
import type { Entrust, Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { EMPTY_VALUE, formatCoin, formatPrice, formatQty } from '../../../shared/format';
import { orderResult } from '../lib/order-result';
import { SpotDialog } from './SpotDialog';

/** Props of OrderResultDialog. */
export interface OrderResultDialogProps {
  /** The answer of setEntrust to show, or null (closed). */
  order: Entrust | null;
  /** The order's market (its display precision). */
  pair: Pair;
  onClose: () => void;
}

/** The result dialog. */
export function OrderResultDialog({ order, pair, onClose }: OrderResultDialogProps) {
  const { t } = useTranslation('spot');
  const result = order ? orderResult(order) : null;
  if (!order || !result) return null;
  const buy = order.side === 'BUY';
  const qty = (v: string) => formatQty(v, pair.qtyDecimals);
  const rows: [string, string][] = [
    [t('filled'), `${qty(order.dealAmount)} ${pair.tokenCur}`],
    [t('avgPrice'), order.avgPrice ? `${formatPrice(order.avgPrice, pair.priceDecimals)} ${pair.mainCur}` : EMPTY_VALUE],
    [t('total'), `${formatCoin(order.dealTotal, pair.mainCur)} ${pair.mainCur}`],
    [t('fee'), `${formatCoin(order.fee, order.feeCur, { exact: true })} ${order.feeCur}`],
  ];
  if (result.remaining) {
    const left = result.remainingCur === pair.tokenCur ? qty(result.remaining) : formatCoin(result.remaining, result.remainingCur);
    rows.push([t(result.outcome === 'partial_open' ? 'result.remaining_open' : 'result.remaining_expired'), `${left} ${result.remainingCur}`]);
  }
  const ok = result.outcome === 'filled';
  return (
    <SpotDialog
      title={t(`result.title.${result.outcome}`)}
      icon={
        <svg className={`sp-result-icon ${ok ? 'sp-result-ok' : 'sp-result-part'}`} width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="12" cy="12" r="11" fill="currentColor" />
          {ok ? (
            <path d="M7 12.5l3.2 3.2L17 9" stroke="#fff" strokeWidth="2.2" fill="none" strokeLinecap="round" strokeLinejoin="round" />
          ) : (
            <path d="M12 6.5v6.5M12 16.5v.5" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
          )}
        </svg>
      }
      onClose={onClose}
      actions={
        <Button block color="primary" onClick={onClose}>
          {t('common:ok')}
        </Button>
      }
    >
      <p className="sp-result-order">
        <span className={buy ? 'c-up' : 'c-down'}>
          {t('result.order', { type: order.orderType === 'MARKET' ? t('market') : t('limit'), side: buy ? t('buy') : t('sell'), pair: order.pairsName })}
        </span>
      </p>
      <dl className="sp-kv" data-testid="order-result">
        {rows.map(([k, v]) => (
          <div key={k} className="sp-kv-row">
            <dt>{k}</dt>
            <dd className="num">{v}</dd>
          </div>
        ))}
      </dl>
    </SpotDialog>
  );
}
