/**
 * The confirmation before a conditional order is sent (Binance app's order confirmation): the kind derived from the
 * side and the trigger against the last price (lib/conditional-order deriveStopType) in a sentence ("Stop-loss: sells
 * when the last price falls to 59,000 USDT or below"; a trailing stop says its delta and where it starts tracking),
 * then the type, trigger condition, trailing delta, price and amount or total. Confirm sends, Cancel closes.
 */
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatFixed, groupThousands } from '../../../shared/format';
import { conditionSign, deriveStopType, executionType, type ConditionalFormValues } from '../lib/conditional-order';
import { ConfirmActions, SpotDialog } from './SpotDialog';

/** Props of ConditionalConfirmDialog. */
export interface ConditionalConfirmDialogProps {
  form: ConditionalFormValues;
  pair: Pair;
  /** The market's last price when the user pressed the button (the kind is derived from it). */
  lastPrice: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The dialog. */
export function ConditionalConfirmDialog({ form, pair, lastPrice, onConfirm, onCancel }: ConditionalConfirmDialogProps) {
  const { t } = useTranslation('spot');
  const kind = deriveStopType(form.side, form.stopPrice, lastPrice) ?? 'STOP_LOSS';
  const px = (v: string) => `${groupThousands(v)} ${pair.mainCur}`;
  const exec = executionType(form.formType, form.trailingExec);
  const trailing = form.formType === 'TRAILING';
  const sentence = trailing
    ? t(`confirm.trailing.${form.side}`, {
        pct: form.trailingPct,
        from: form.stopPrice ? t('confirm.fromActivation', { price: px(form.stopPrice) }) : t('confirm.fromNow'),
      })
    : t(`confirm.explain.${kind}.${form.side}`, { price: px(form.stopPrice) });
  const byTotal = exec === 'MARKET' && form.side === 'BUY' && form.marketBuyBy === 'total';
  const rows: [string, string][] = [
    [t('confirm.type'), `${t(`types.${form.formType}`)} · ${form.side === 'BUY' ? t('buy') : t('sell')}`],
    ...(!trailing || form.stopPrice ? [[t('confirm.kind'), t(`kind.${kind}`)] as [string, string]] : []),
    ...(form.stopPrice
      ? [[trailing ? t('activationPrice') : t('stopPrice'), `${t('lastPrice')} ${conditionSign(kind, form.side)} ${px(form.stopPrice)}`] as [string, string]]
      : []),
    ...(trailing ? [[t('trailingDelta'), `${form.trailingPct}%`] as [string, string]] : []),
    [t('price'), exec === 'LIMIT' ? px(form.price) : t('marketPrice')],
    byTotal ? [t('total'), px(form.total)] : [t('amount'), `${groupThousands(form.amount)} ${pair.tokenCur}`],
  ];
  return (
    <SpotDialog title={t('confirm.title')} onClose={onCancel} actions={<ConfirmActions onCancel={onCancel} onConfirm={onConfirm} />}>
      <p className="sp-impact-text" data-testid="conditional-explain">
        {sentence}
      </p>
      <dl className="sp-kv">
        {rows.map(([k, v]) => (
          <div key={k} className="sp-kv-row">
            <dt>{k}</dt>
            <dd className="num">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="sp-impact-text text-3">{t('confirm.last', { price: px(formatFixed(lastPrice, pair.priceDecimals)) })}</p>
    </SpotDialog>
  );
}
