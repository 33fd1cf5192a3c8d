/**
 * The confirmation before an OCO is sent (Binance app's OCO confirmation): a sentence for each leg ("Take profit:
 * sells at 62,000 USDT", "Stop loss: when the last price falls to 59,000 USDT or below, sells at 58,900 USDT"), then
 * the amount and what is held once for the list. Confirm sends, Cancel closes.
 */
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatFixed, groupThousands, mulDecimal } from '../../../shared/format';
import { conditionSign } from '../lib/conditional-order';
import { ocoSizingPrice, type OcoFormValues } from '../lib/oco-order';
import { totalDecimals } from '../lib/order-form';
import { ConfirmActions, SpotDialog } from './SpotDialog';

/** Props of OcoConfirmDialog. */
export interface OcoConfirmDialogProps {
  form: OcoFormValues;
  pair: Pair;
  /** The market's last price when the user pressed the button. */
  lastPrice: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The dialog. */
export function OcoConfirmDialog({ form, pair, lastPrice, onConfirm, onCancel }: OcoConfirmDialogProps) {
  const { t } = useTranslation('spot');
  const px = (v: string) => `${groupThousands(v)} ${pair.mainCur}`;
  const side = form.side;
  const held =
    side === 'SELL' ? `${groupThousands(form.amount)} ${pair.tokenCur}` : px(mulDecimal(ocoSizingPrice(form), form.amount, totalDecimals({ ...pair }), 'up'));
  const rows: [string, string][] = [
    [t('confirm.type'), `${t('tabs.OCO')} · ${side === 'BUY' ? t('buy') : t('sell')}`],
    [t('oco.limitLeg'), px(form.price)],
    [t('stopPrice'), `${t('lastPrice')} ${conditionSign('STOP_LOSS', side)} ${px(form.stopPrice)}`],
    [t('oco.stopLimitPrice'), px(form.stopLimitPrice)],
    [t('amount'), `${groupThousands(form.amount)} ${pair.tokenCur}`],
    [t('oco.held'), held],
  ];
  return (
    <SpotDialog title={t('confirm.title')} onClose={onCancel} actions={<ConfirmActions onCancel={onCancel} onConfirm={onConfirm} />}>
      <p className="sp-impact-text" data-testid="oco-take-profit">
        {t(`oco.explainLimit.${side}`, { price: px(form.price) })}
      </p>
      <p className="sp-impact-text" data-testid="oco-stop-loss">
        {t(`oco.explainStop.${side}`, { stop: px(form.stopPrice), price: px(form.stopLimitPrice) })}
      </p>
      <p className="sp-impact-text text-3">{t('oco.oneCancelsOther')}</p>
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
