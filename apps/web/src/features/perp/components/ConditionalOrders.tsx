/**
 * The conditional orders of the contract screen's order area: a filter Open | History over the caller's conditional
 * orders of the market. Open ones (pending) show the type, side, trigger price, working price (Mark / Last), size and
 * a Cancel button; history ones their state: TRIGGERED (with the order it became: its status and fill price),
 * CANCELLED, or EXPIRED with the reason the order was refused at its trigger.
 */
import { useState } from 'react';
import { Button } from 'antd-mobile';
import type { ContractConditionalOrder, ContractMarket } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { EMPTY_VALUE, formatDateTime, groupThousands } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useCancelContractConditional } from '../api/cancel-conditional';
import { useContractConditional } from '../api/get-conditional';
import type { ConditionalTab } from '../api/keys';
import { CardGrid, priceText } from './CardParts';

/** Props of ConditionalOrderCard. */
export interface ConditionalOrderCardProps {
  order: ContractConditionalOrder;
  priceDecimals: number;
  onCancel?: (order: ContractConditionalOrder) => void;
  cancelling?: boolean;
}

/** One conditional order. */
export function ConditionalOrderCard({ order: o, priceDecimals: d, onCancel, cancelling }: ConditionalOrderCardProps) {
  const { t } = useTranslation('contract');
  const trailing = o.type === 'TRAILING_STOP';
  const size = o.closePosition && o.state === 'PENDING' ? t('cond.closePosition') : `${groupThousands(o.quantity)}`;
  const cells: [string, string][] = [
    trailing ? [t('cond.callbackRate'), `${o.callbackRate}%`] : [t('cond.stopPrice'), priceText(o.stopPrice, d)],
    [t('cond.workingType'), t(`cond.${o.workingType}`)],
    [t('entrustPrice'), o.orderType === 'MARKET' ? t('market') : priceText(o.price, d)],
    [t('quantity'), size],
    ...(trailing ? [[t('cond.activationPrice'), priceText(o.activationPrice, d)] as [string, string]] : []),
    [t('cond.reduceOnly'), o.reduceOnly || o.closePosition ? t('cond.yes') : t('cond.no')],
    [t('cond.createTime'), formatDateTime(o.createTime)],
  ];
  if (o.state !== 'PENDING') {
    cells.push([t('cond.triggerTime'), o.triggerTime ? formatDateTime(o.triggerTime) : EMPTY_VALUE]);
    if (o.state === 'TRIGGERED') {
      cells.push([t('cond.becameOrder'), `${o.orderId} · ${t(`status.${o.orderStatus}`)}`]);
      cells.push([t('matchPrice'), priceText(o.avgPrice, d)]);
      cells.push([t('matchQty'), groupThousands(o.filledQty)]);
    }
  }
  return (
    <li className="ct-card" aria-label={`${o.symbol} ${t(`cond.type.${o.type}`)}`} data-testid="conditional-order">
      <div className="ct-card-top">
        <span className={`ct-card-side ${o.side === 'BUY' ? 'c-up' : 'c-down'}`}>{o.side === 'BUY' ? t('long') : t('short')}</span>
        <b className="ct-card-pair">{o.symbol}</b>
        <span className="ct-chip" data-testid="cond-type">
          {t(`cond.type.${o.type}`)}
        </span>
        {onCancel && o.state === 'PENDING' ? (
          <Button size="mini" className="ct-card-end" loading={cancelling} onClick={() => onCancel(o)}>
            {t('revoke')}
          </Button>
        ) : (
          <span className="ct-card-end" data-testid="cond-state">
            {t(`cond.state.${o.state}`)}
          </span>
        )}
      </div>
      <CardGrid cells={cells} />
      {o.state === 'EXPIRED' && (
        <p className="ct-cond-reason" data-testid="cond-reason">
          {t('cond.reason')}: {o.expireMessage || o.expireReason}
        </p>
      )}
    </li>
  );
}

/** The Open | History filter and the list of the market's conditional orders. */
export function ConditionalOrders({ market }: { market: ContractMarket }) {
  const { t } = useTranslation('contract');
  const [tab, setTab] = useState<ConditionalTab>('open');
  const q = useContractConditional(tab, market.symbol);
  const cancel = useCancelContractConditional();
  const [cancelling, setCancelling] = useState<string | null>(null);
  const onCancel = (o: ContractConditionalOrder) => {
    setCancelling(o.orderId);
    cancel.mutate(o.orderId, { onSuccess: () => showToast(t('cond.cancelled')), onSettled: () => setCancelling(null) });
  };
  const records = q.data?.records ?? [];
  return (
    <>
      <SegTabs
        classPrefix="ct"
        variant="text"
        label={t('cond.tab')}
        items={[
          { key: 'open' as const, label: t('cond.open') },
          { key: 'history' as const, label: t('cond.history') },
        ]}
        active={tab}
        onChange={setTab}
      />
      {isAwaiting(q) ? (
        <ListSkeleton rows={2} />
      ) : q.isError && !q.data ? (
        <LoadFailed compact error={q.error} onRetry={() => void q.refetch()} />
      ) : records.length === 0 ? (
        <EmptyState text={tab === 'open' ? t('cond.noneOpen') : t('cond.noneHistory')} />
      ) : (
        <ul className="ct-list" aria-label={tab === 'open' ? t('cond.open') : t('cond.history')}>
          {records.map((o) => (
            <ConditionalOrderCard
              key={o.orderId}
              order={o}
              priceDecimals={market.priceDecimals}
              onCancel={tab === 'open' ? onCancel : undefined}
              cancelling={cancelling === o.orderId}
            />
          ))}
        </ul>
      )}
    </>
  );
}
