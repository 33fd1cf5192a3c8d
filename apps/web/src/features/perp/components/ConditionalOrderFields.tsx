/**
 * The conditional part of the contract order form (Binance futures' Stop-limit, Stop-market and Trailing stop): the
 * trigger price with its working price ("Mark" or "Last"), the limit price (stop-limit), the callback rate and optional
 * activation price (trailing stop), the lots, reduce-only and, for a stop-market, close position. A refused value is
 * said under its field; the order is placed after a confirm that repeats it (type, side, trigger, working price,
 * size), with a client order id kept for a retry after a network failure. Nothing is held until it triggers.
 */
import { useRef, useState } from 'react';
import type { ContractMarket, ContractWorkingType } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { formatFixed, groupThousands } from '../../../shared/format';
import { useRequireNickname } from '../../../shared/guards';
import { loadFeedback } from '../../../shared/ui/feedback';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { usePlaceContractConditional } from '../api/place-conditional';
import { stepPrice, type ContractRules, type PositionSide } from '../lib/contract-form';
import {
  conditionalBody,
  conditionalType,
  validateConditional,
  workingPriceOf,
  type ConditionalError,
  type ConditionalKind,
  type ConditionalValues,
} from '../lib/conditional-form';
import { NumberField } from './NumberField';

/** Props of ConditionalOrderFields. */
export interface ConditionalOrderFieldsProps {
  market: ContractMarket;
  rules: ContractRules;
  kind: ConditionalKind;
  side: PositionSide;
  /** the user has a position in the market (reduce-only and close position make sense) */
  hasPosition: boolean;
}

/** Which field an error is shown under. */
function fieldOf(err: ConditionalError | null): 'stop' | 'price' | 'lots' | 'rate' | 'activation' | null {
  switch (err) {
    case 'stop_price_required':
    case 'stop_price_not_on_tick':
    case 'stop_price_at_market':
      return 'stop';
    case 'price_required':
    case 'price_not_on_tick':
      return 'price';
    case 'lots_required':
      return 'lots';
    case 'callback_rate_invalid':
      return 'rate';
    case 'activation_not_on_tick':
      return 'activation';
    default:
      return null;
  }
}

/** The fields and the submit button of a conditional order. */
export function ConditionalOrderFields({ market, rules, kind, side, hasPosition }: ConditionalOrderFieldsProps) {
  const { t } = useTranslation('contract');
  const requireNickname = useRequireNickname();
  const placing = usePlaceContractConditional();
  const [stopPrice, setStopPrice] = useState('');
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('');
  const [workingType, setWorkingType] = useState<ContractWorkingType>('CONTRACT_PRICE');
  const [reduceOnly, setReduceOnly] = useState(false);
  const [closePosition, setClosePosition] = useState(false);
  const [callbackRate, setCallbackRate] = useState('');
  const [activationPrice, setActivationPrice] = useState('');
  /** Paused on a stale index, an order that may open or increase a position is refused (index_stale). */
  const blockedByPause = market.paused === true && !reduceOnly && !closePosition;
  const pending = useRef<{ key: string; id: string } | null>(null);
  const d = market.priceDecimals;
  const closing = kind === 'STOP_MARKET' && closePosition;
  const values: ConditionalValues = { kind, side, stopPrice, price, lots, workingType, reduceOnly, closePosition: closing, callbackRate, activationPrice };
  const working = workingPriceOf(workingType, market);
  const message = (err: ConditionalError) => t(`cond.err.${err}`, { step: rules.tickSize.replace(/\.?0+$/, ''), coin: rules.quote });
  const live = validateConditional(values, rules, working);
  // Under a field only once something was typed in it (empty fields are said on submit).
  const typed: Record<string, string> = { stop: stopPrice, price, lots, rate: callbackRate, activation: activationPrice };
  const liveField = fieldOf(live);
  const fieldError = (f: NonNullable<ReturnType<typeof fieldOf>>) => (live && liveField === f && typed[f] !== '' ? message(live) : null);
  const lotsNum = Number.parseInt(lots || '0', 10);
  const reducing = closing || reduceOnly;
  const buttonLabel = reducing ? t(side === 'LONG' ? 'tradeType.CLOSE_SHORT' : 'tradeType.CLOSE_LONG') : t(side === 'LONG' ? 'openLong' : 'openShort');

  const submit = async () => {
    if (!requireNickname()) return;
    const err = validateConditional(values, rules, working);
    if (err) {
      showToast(message(err));
      return;
    }
    const body = conditionalBody(market.symbol, values, working, rules);
    const type = conditionalType(kind, side, stopPrice, working, d);
    const { Dialog } = await loadFeedback();
    const lines = [
      [t('cond.typeLabel'), t(`cond.type.${type}`)],
      [t('side'), buttonLabel],
      ...(kind === 'TRAILING_STOP'
        ? [
            [t('cond.callbackRate'), `${callbackRate}%`],
            [t('cond.activationPrice'), activationPrice ? formatFixed(activationPrice, d, { group: true }) : t('cond.activationNow')],
          ]
        : [[t('cond.stopPrice'), formatFixed(stopPrice, d, { group: true })]]),
      [t('cond.workingType'), t(`cond.${workingType}`)],
      [t('price'), kind === 'STOP_LIMIT' ? formatFixed(price, d, { group: true }) : t('marketPrice')],
      [t('lots'), closing ? t('cond.closePosition') : lots],
      ...(reduceOnly && !closing ? [[t('cond.reduceOnly'), t('cond.yes')]] : []),
    ];
    const ok = await Dialog.confirm({
      title: t('cond.confirmTitle'),
      content: (
        <dl className="ct-cond-confirm num" data-testid="cond-confirm">
          {lines.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      ),
      confirmText: t('confirm'),
      cancelText: t('cancel'),
    });
    if (!ok) return;
    const key = JSON.stringify(body);
    if (!pending.current || pending.current.key !== key) pending.current = { key, id: crypto.randomUUID() };
    try {
      await placing.mutateAsync({ ...body, clientOrderId: pending.current.id });
      pending.current = null;
      showToast(t('cond.placed'));
      setLots('');
    } catch (e) {
      if (isApiError(e)) showToast(e.message);
      if (!(isApiError(e, 'NETWORK') || isApiError(e, 'TIMEOUT'))) pending.current = null;
    }
  };

  return (
    <>
      {kind === 'TRAILING_STOP' ? (
        <>
          <NumberField
            caption
            id="ct-callback"
            label={t('cond.callbackRate')}
            unit="%"
            value={callbackRate}
            onChange={setCallbackRate}
            error={fieldError('rate')}
          />
          <div className="ct-lev-marks" role="group" aria-label={t('cond.callbackRate')}>
            {['0.5', '1', '2', '5'].map((r) => (
              <button key={r} type="button" className="ct-lev-mark num" aria-pressed={callbackRate === r} onClick={() => setCallbackRate(r)}>
                {r}%
              </button>
            ))}
          </div>
          <NumberField
            caption
            id="ct-activation"
            label={t('cond.activationPrice')}
            unit={market.quote}
            value={activationPrice}
            onChange={setActivationPrice}
            error={fieldError('activation')}
          />
        </>
      ) : (
        <NumberField
          caption
          id="ct-stop"
          label={t('cond.stopPrice')}
          unit={market.quote}
          value={stopPrice}
          onChange={setStopPrice}
          onStep={(dir) => setStopPrice(stepPrice(stopPrice || working, market.tickSize, d, dir))}
          error={fieldError('stop')}
        />
      )}
      <div className="ct-row ct-cond-working">
        <span className="text-3">{t('cond.workingType')}</span>
        <SegTabs
          classPrefix="ct"
          variant="text"
          label={t('cond.workingType')}
          items={[
            { key: 'MARK_PRICE' as const, label: t('cond.MARK_PRICE') },
            { key: 'CONTRACT_PRICE' as const, label: t('cond.CONTRACT_PRICE') },
          ]}
          active={workingType}
          onChange={setWorkingType}
        />
        <span className="num text-3" data-testid="working-price">
          {working ? formatFixed(working, d, { group: true }) : '--'}
        </span>
      </div>
      {kind === 'STOP_LIMIT' && (
        <NumberField
          caption
          id="ct-cond-price"
          label={t('price')}
          unit={market.quote}
          value={price}
          onChange={setPrice}
          onStep={(dir) => setPrice(stepPrice(price || stopPrice || working, market.tickSize, d, dir))}
          error={fieldError('price')}
        />
      )}
      {kind !== 'STOP_LIMIT' && (
        <div className="ct-field ct-field-disabled" aria-label={t('price')}>
          {t('marketPrice')}
        </div>
      )}
      {!closing && (
        <NumberField
          id="ct-cond-lots"
          label={t('lots')}
          unit=""
          inputMode="numeric"
          value={lots}
          onChange={setLots}
          onStep={(dir) => setLots(String(Math.max(0, lotsNum + dir)) === '0' ? '' : String(Math.max(0, lotsNum + dir)))}
          error={fieldError('lots')}
        />
      )}
      <div className="ct-rule">{t('lotRule', { n: groupThousands(market.lotNotional.replace(/\.0*$/, '')) })}</div>
      <div className="ct-cond-checks">
        {!closing && (
          <label className="ct-tpsl-toggle">
            <input type="checkbox" checked={reduceOnly} onChange={(e) => setReduceOnly(e.target.checked)} />
            {t('cond.reduceOnly')}
          </label>
        )}
        {kind === 'STOP_MARKET' && hasPosition && (
          <label className="ct-tpsl-toggle">
            <input type="checkbox" checked={closePosition} onChange={(e) => setClosePosition(e.target.checked)} />
            {t('cond.closePosition')}
          </label>
        )}
      </div>
      <p className="ct-rule" data-testid="cond-hint">
        {t('cond.hint')}
      </p>
      {/* A paused contract (stale index) takes reduce-only and close-position orders only, as the engine does. */}
      <button
        type="button"
        disabled={placing.isPending || blockedByPause}
        aria-busy={placing.isPending}
        title={blockedByPause ? t('pausedSubmit') : undefined}
        className={`ct-submit ct-submit-${side.toLowerCase()}`}
        onClick={() => void submit()}
      >
        {buttonLabel}
      </button>
    </>
  );
}
