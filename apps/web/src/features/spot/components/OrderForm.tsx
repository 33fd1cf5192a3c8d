/**
 * Spot order form: buy/sell, limit or market, price and amount inputs with
 * steppers by the market's tickSize / stepSize, shown with thousands separators, a
 * percent-of-available selector (0/25/50/75/100 %) computing the amount or total exactly, the
 * available balance of the SPOT account, the estimated total, and market BUY by total or by amount.
 * A value the market refuses is explained under its field while the user types: the step
 * ("Amount must be a multiple of 0.00001 BTC"), the minimum order value ("Minimum order value is
 * 5 USDT"), the minimum amount, the balance; a value too fine for the market is kept as typed, never
 * cut to zero. Submitting applies the spec's rules in order: login ('You are not logged in, log in?'),
 * nickname ('No nickname set, set one?'), the form rules, then, for a market order that the visible book says
 * would fill more than 1% from the best price (or not in full), Binance's price impact warning (continue or
 * cancel); it sends the order with a client order id that is kept for a retry of the same order after a network
 * failure. A fill is shown at once in a result dialog (filled quantity, average price, total, fee, what is left);
 * a limit order resting on the book is acknowledged with "Order placed". Logged out, Log in and
 * Sign up buttons (with a way back here) stand in for the submit button and no balance is shown.
 * Conditional orders (Binance app's Stop-limit, Stop-market, Trailing stop; docs/conditional-orders.md): a trigger
 * price (or, for a trailing stop, a delta in percent and an optional activation price), with the kind (stop-loss or
 * take-profit) derived from the side and the trigger against the last price, shown under the trigger field and in a
 * confirmation before the order is sent (lib/conditional-order). OCO (Binance app's OCO; lib/oco-order): a limit price
 * (the take-profit leg), a trigger price and a stop-limit price (the stop-loss leg) and one amount, checked against the
 * last price for the side, confirmed with both legs shown, sent as one list (setOcoEntrust).
 */
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import type { Entrust, Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { useRequireNickname } from '../../../shared/guards';
import { useAppStore } from '../../../shared/storage';
import { formatFixed, groupThousands } from '../../../shared/format';
import { wsQueryKeys, type DepthState } from '../../../shared/ws-client';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useSpotBalance } from '../api/get-spot-assets';
import { useSetEntrust } from '../api/set-entrust';
import { useSetOcoEntrust } from '../api/set-oco-entrust';
import { ocoEntrustBody, ocoFormMessage, ocoSizingPrice, validateOco, type OcoField, type OcoFormValues } from '../lib/oco-order';
import { OcoConfirmDialog } from './OcoConfirmDialog';
import {
  caretAfter,
  errorField,
  estimatedTotal,
  INPUT_DECIMALS,
  newClientOrderId,
  percentToForm,
  sanitizeDecimalInput,
  stepBy,
  totalDecimals,
  ungroupTyped,
  type MarketRules,
  type OrderFormValues,
  type Side,
} from '../lib/order-form';
import { estimatePriceImpact, type PriceImpact } from '../lib/price-impact';
import { orderResult } from '../lib/order-result';
import {
  anyEntrustBody,
  anyFormMessage,
  conditionalErrorField,
  conditionSign,
  deriveStopType,
  executionType,
  TYPE_TABS,
  typeTabOf,
  withExec,
  isConditionalError,
  isConditionalType,
  validateAnyOrder,
  type AnyFormError,
  type ConditionalFormValues,
  type TypeTab,
} from '../lib/conditional-order';
import { ConditionalConfirmDialog } from './ConditionalConfirmDialog';
import { OrderResultDialog } from './OrderResultDialog';
import { PriceImpactDialog } from './PriceImpactDialog';

/** Percent choices of the selector. */
export const PERCENTS = [0, 25, 50, 75, 100] as const;

/** Props of OrderForm. */
export interface OrderFormProps {
  pair: Pair;
  side: Side;
  onSideChange: (side: Side) => void;
  /** A price chosen in the order book; `n` changes on every tap. */
  priceFill: { price: string; n: number } | null;
}

function rulesOf(p: Pair): MarketRules {
  return {
    tokenCur: p.tokenCur,
    mainCur: p.mainCur,
    priceDecimals: p.priceDecimals,
    qtyDecimals: p.qtyDecimals,
    tickSize: p.tickSize,
    stepSize: p.stepSize,
    minQty: p.minQty,
    minNotional: p.minNotional,
  };
}

interface FieldProps {
  id: string;
  label: string;
  unit: string;
  /** The value as the form holds it (a plain decimal); shown with thousands separators. */
  value: string;
  onChange: (v: string) => void;
  onStep?: (dir: 1 | -1) => void;
  /** Message shown under the field (the value is refused), or null. */
  error?: string | null;
  /** A note under the field when there is no error (the derived trigger kind), optional. */
  hint?: string | null;
  /** Shows the label and unit above the field (the conditional types, where three price-like fields stack up). */
  caption?: boolean;
}

function NumberField({ id, label, unit, value, onChange, onStep, error, hint, caption }: FieldProps) {
  const { t } = useTranslation('spot');
  const input = useRef<HTMLInputElement>(null);
  // Characters before the caret (separators not counted) after the last edit: the caret stays after the
  // same digit when a separator appears or goes ("9999" -> "99,999").
  const caret = useRef<number | null>(null);
  const display = groupThousands(value);
  useLayoutEffect(() => {
    const el = input.current;
    if (caret.current === null || !el || document.activeElement !== el) return;
    const at = caretAfter(display, caret.current);
    el.setSelectionRange(at, at);
    caret.current = null;
  });
  const errorId = `${id}-error`;
  return (
    <div className="sp-field-wrap">
      {caption && (
        <div className="sp-field-cap text-3" aria-hidden="true">
          {label} ({unit})
        </div>
      )}
      <div className={`sp-field${error ? ' sp-field-invalid' : ''}`}>
        {onStep && (
          <button type="button" className="sp-step" aria-label={t('decrease', { field: label })} onClick={() => onStep(-1)}>
            −
          </button>
        )}
        <label htmlFor={id} className="sp-field-label">
          {label}
        </label>
        <input
          id={id}
          className="sp-input num"
          inputMode="decimal"
          autoComplete="off"
          placeholder={`${label} (${unit})`}
          value={display}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          ref={input}
          onChange={(e) => {
            const typed = e.target.value;
            caret.current = typed.slice(0, e.target.selectionStart ?? typed.length).replace(/,/g, '').length;
            onChange(ungroupTyped(typed, display));
          }}
        />
        {onStep && (
          <button type="button" className="sp-step" aria-label={t('increase', { field: label })} onClick={() => onStep(1)}>
            +
          </button>
        )}
      </div>
      {error && (
        <div id={errorId} className="sp-field-error" role="alert">
          {error}
        </div>
      )}
      {!error && hint && (
        <div className="sp-field-hint text-3" data-testid={`${id}-hint`}>
          {hint}
        </div>
      )}
    </div>
  );
}

/** The order form. */
export function OrderForm({ pair, side, onSideChange, priceFill }: OrderFormProps) {
  const { t } = useTranslation('spot');
  const rules = rulesOf(pair);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const isLogin = useAppStore((s) => s.isLogin);
  const requireNickname = useRequireNickname();
  const placing = useSetEntrust();
  const placingOco = useSetOcoEntrust();
  const [form, setForm] = useState<ConditionalFormValues & Pick<OcoFormValues, 'stopLimitPrice'>>({
    side,
    orderType: 'LIMIT',
    formType: 'LIMIT',
    marketBuyBy: 'total',
    price: '',
    amount: '',
    total: '',
    stopPrice: '',
    trailingPct: '',
    trailingExec: 'LIMIT',
    stopLimitPrice: '',
  });
  // The OCO waiting for the user's confirmation, with the last price it was checked against.
  const [confirmingOco, setConfirmingOco] = useState<{ form: OcoFormValues; lastPrice: string } | null>(null);
  // The conditional order waiting for the user's confirmation, with the last price it was derived against.
  const [confirming, setConfirming] = useState<{ form: ConditionalFormValues; lastPrice: string } | null>(null);
  const [pct, setPct] = useState<number | null>(null);
  const pending = useRef<{ key: string; id: string } | null>(null);
  // The price impact warning waiting for an answer, and the fill to show.
  const [impact, setImpact] = useState<PriceImpact | null>(null);
  const [result, setResult] = useState<Entrust | null>(null);
  const f: ConditionalFormValues & Pick<OcoFormValues, 'stopLimitPrice'> = { ...form, side, orderType: executionType(form.formType, form.trailingExec) };
  const isOco = f.formType === 'OCO';
  const ocoForm: OcoFormValues = { side, price: f.price, stopPrice: f.stopPrice, stopLimitPrice: f.stopLimitPrice, amount: f.amount };
  const spendCoin = side === 'BUY' ? pair.mainCur : pair.tokenCur;
  const balance = useSpotBalance(spendCoin);
  const available = isLogin ? balance.available : '0';

  // New pair: reset the form with the last price as the limit price. Only when the pair changes: the effect event reads
  // the price at the time, so later price moves do not overwrite what the user typed.
  const resetForPair = useEffectEvent(() => {
    setForm((s) => ({
      ...s,
      price: pair.price && pair.price !== '0' && !/^0(\.0*)?$/.test(pair.price) ? formatFixed(pair.price, pair.priceDecimals) : '',
      amount: '',
      total: '',
      stopPrice: '',
      stopLimitPrice: '',
    }));
    setPct(null);
  });
  useEffect(() => {
    resetForPair();
  }, [pair.pairsName]);

  // First real price of a new market (the ticker may arrive after the pair): fills the price field while it is empty.
  useEffect(() => {
    if (pair.price && !/^0(\.0*)?$/.test(pair.price)) setForm((s) => (s.price ? s : { ...s, price: formatFixed(pair.price, pair.priceDecimals) }));
  }, [pair.price, pair.priceDecimals]);

  // A price tapped in the book (a new object on every tap), set as if typed; setField (new on every render, it reads
  // the percent and side) is read at the time.
  const fillPrice = useEffectEvent((price: string) => setField('price', price));
  useEffect(() => {
    if (priceFill) fillPrice(priceFill.price);
  }, [priceFill]);

  useEffect(() => {
    setForm((s) => ({ ...s, amount: '', total: '' }));
    setPct(null);
  }, [side]);

  function applyPercent<F extends ConditionalFormValues & Pick<OcoFormValues, 'stopLimitPrice'>>(p: number, next: F): F {
    // A BUY OCO holds its larger leg: its share of the balance is sized at that price.
    const price = next.formType === 'OCO' ? ocoSizingPrice(next) : next.price;
    const asPlaced: OrderFormValues = { ...next, price, side, orderType: executionType(next.formType, next.trailingExec) };
    return { ...next, ...percentToForm({ form: asPlaced, rules, available, lastPrice: pair.price, percent: p }) };
  }

  function setField(field: 'price' | 'amount' | 'total' | 'stopPrice' | 'trailingPct' | 'stopLimitPrice', raw: string) {
    // Decimals beyond the market's precision are kept and explained under the field (validateOrder), not cut; a
    // trailing delta keeps three decimals so that a fourth is explained too (steps of 0.01%).
    const v = sanitizeDecimalInput(raw, field === 'trailingPct' ? 3 : INPUT_DECIMALS);
    setForm((s) => {
      const next = { ...s, [field]: v };
      if ((field === 'price' || field === 'stopLimitPrice') && pct !== null && side === 'BUY') return applyPercent(pct, next);
      return next;
    });
    if (field === 'amount' || field === 'total') setPct(null);
  }

  const step = (field: 'price' | 'amount' | 'stopPrice' | 'stopLimitPrice', dir: 1 | -1) =>
    setField(field, stepBy(form[field], field === 'amount' ? rules.stepSize : rules.tickSize, dir));

  const choosePercent = (p: number) => {
    setPct(p);
    setForm((s) => applyPercent(p, s));
  };

  const est = estimatedTotal(f, rules, pair.price);
  const byTotal = f.orderType === 'MARKET' && side === 'BUY' && f.marketBuyBy === 'total';
  const messageOf = (err: AnyFormError) => {
    const m = anyFormMessage(err, rules);
    return t(m.key, m.values);
  };

  // Shown under its field as soon as the user has typed a value the market refuses; an empty field is only
  // reported on submit, and a balance only for a logged-in user (a visitor's is unknown, not zero).
  const live = validateAnyOrder(f, rules, available, pair.price);
  const liveField = live ? (isConditionalError(live) ? (conditionalErrorField(live) === 'stop' ? 'stopPrice' : 'trailingPct') : errorField(live, f)) : null;
  const shown = live && liveField && f[liveField] !== '' && !live.endsWith('_required') && (live !== 'insufficient_balance' || isLogin) ? live : null;
  // The OCO form's own check (lib/oco-order), shown the same way: under a typed field, never for an empty one.
  const liveOco = isOco ? validateOco(ocoForm, rules, available, pair.price) : null;
  const shownOco =
    liveOco && f[liveOco.field] !== '' && !liveOco.error.endsWith('_required') && (liveOco.error !== 'insufficient_balance' || isLogin) ? liveOco : null;
  const ocoMessage = (e: NonNullable<typeof liveOco>) => {
    const m = ocoFormMessage(e.error, rules, pair.price);
    return t(m.key, m.values);
  };
  const fieldError = (field: 'price' | 'amount' | 'total' | 'stopPrice' | 'trailingPct' | OcoField) =>
    isOco ? (shownOco && shownOco.field === field ? ocoMessage(shownOco) : null) : shown && liveField === field ? messageOf(shown) : null;
  const conditional = isConditionalType(f.formType);
  // The kind the trigger price makes of the order, said under the trigger field ("Stop-loss: last price ≤ 59,000").
  const liveKind = f.stopPrice && /^\d+(\.\d+)?$/.test(f.stopPrice) ? deriveStopType(side, f.stopPrice, pair.price) : null;
  const kindHint = liveKind ? t('kindHint', { kind: t(`kind.${liveKind}`), sign: conditionSign(liveKind, side), price: groupThousands(f.stopPrice) }) : null;

  /** The estimate of a market order on the book the screen holds now; null for a limit order or an empty book. */
  const marketImpact = (): PriceImpact | null => {
    if (f.orderType !== 'MARKET') return null;
    const depth = qc.getQueryData<DepthState>(wsQueryKeys.depth('SPOT', pair.pairsName));
    const levels = side === 'BUY' ? depth?.asks : depth?.bids;
    if (!levels) return null;
    const byTotalNow = side === 'BUY' && f.marketBuyBy === 'total';
    return estimatePriceImpact(levels, { side, ...(byTotalNow ? { total: f.total } : { amount: f.amount }), stepSize: rules.stepSize }, rules.priceDecimals);
  };

  const submit = () => {
    if (!requireNickname()) return;
    if (isOco) {
      const bad = validateOco(ocoForm, rules, available, pair.price);
      if (bad) showToast(ocoMessage(bad));
      else setConfirmingOco({ form: ocoForm, lastPrice: pair.price });
      return;
    }
    const err = validateAnyOrder(f, rules, available, pair.price);
    if (err) {
      showToast(messageOf(err));
      return;
    }
    if (isConditionalType(f.formType)) {
      setConfirming({ form: f, lastPrice: pair.price });
      return;
    }
    const est = marketImpact();
    if (est && (est.exceeds || !est.complete)) {
      setImpact(est);
      return;
    }
    void send();
  };

  const send = async (lastPrice: string = pair.price) => {
    const base = anyEntrustBody(pair.pairsName, f, lastPrice, '');
    const key = JSON.stringify(base);
    if (!pending.current || pending.current.key !== key) pending.current = { key, id: newClientOrderId() };
    try {
      const placed = await placing.mutateAsync({ ...base, clientOrderId: pending.current.id });
      pending.current = null;
      if (placed && orderResult(placed)) setResult(placed);
      else showToast(t('orderPlaced'));
      setForm((s) => ({ ...s, amount: '', total: '', stopPrice: '' }));
      setPct(null);
    } catch (e) {
      // Keep the id only when the order may have reached the server (network failure or timeout).
      if (!(isApiError(e, 'NETWORK') || isApiError(e, 'TIMEOUT'))) pending.current = null;
    }
  };

  const sendOco = async (oco: OcoFormValues) => {
    const base = ocoEntrustBody(pair.pairsName, oco, '');
    const key = JSON.stringify(base);
    if (!pending.current || pending.current.key !== key) pending.current = { key, id: newClientOrderId() };
    try {
      await placingOco.mutateAsync({ ...base, clientOrderId: pending.current.id });
      pending.current = null;
      showToast(t('orderPlaced'));
      setForm((s) => ({ ...s, amount: '', total: '', stopPrice: '', stopLimitPrice: '' }));
      setPct(null);
    } catch (e) {
      if (!(isApiError(e, 'NETWORK') || isApiError(e, 'TIMEOUT'))) pending.current = null;
    }
  };

  // Where Log in and Sign up come back to.
  const back = encodeURIComponent(location.pathname + location.search);
  const sideLabel = side === 'BUY' ? t('buyCoin', { coin: pair.tokenCur }) : t('sellCoin', { coin: pair.tokenCur });
  return (
    <form
      className="sp-form"
      aria-label={sideLabel}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div role="tablist" aria-label={t('side')} className="sp-sides">
        {(['BUY', 'SELL'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={side === s}
            className={`sp-side sp-side-${s.toLowerCase()}${side === s ? ' sp-side-on' : ''}`}
            onClick={() => onSideChange(s)}
          >
            {s === 'BUY' ? t('buy') : t('sell')}
          </button>
        ))}
      </div>
      <SegTabs
        classPrefix="sp"
        label={t('orderType')}
        variant="pill"
        className="sp-types"
        items={TYPE_TABS.map((key) => ({ key, label: t(`tabs.${key}`) }))}
        active={typeTabOf(f.formType)}
        onChange={(tab: TypeTab) => {
          // A stop starts as a stop-limit, as Binance's app does.
          const formType = tab === 'STOP' ? 'STOP_LIMIT' : tab;
          setForm((s) => ({ ...s, formType, orderType: executionType(formType, s.trailingExec), amount: '', total: '' }));
          setPct(null);
        }}
      />
      {f.formType === 'TRAILING' && (
        <>
          <NumberField
            caption={conditional}
            id="sp-trailing"
            label={t('trailingDelta')}
            unit="%"
            value={f.trailingPct}
            onChange={(v) => setField('trailingPct', v)}
            error={fieldError('trailingPct')}
            hint={t('trailingHint')}
          />
          <NumberField
            caption={conditional}
            id="sp-stop"
            label={t('activationPrice')}
            unit={pair.mainCur}
            value={f.stopPrice}
            onChange={(v) => setField('stopPrice', v)}
            onStep={(d) => step('stopPrice', d)}
            error={fieldError('stopPrice')}
            hint={kindHint ?? t('activationOptional')}
          />
        </>
      )}
      {conditional && f.formType !== 'TRAILING' && (
        <NumberField
          caption={conditional}
          id="sp-stop"
          label={t('stopPrice')}
          unit={pair.mainCur}
          value={f.stopPrice}
          onChange={(v) => setField('stopPrice', v)}
          onStep={(d) => step('stopPrice', d)}
          error={fieldError('stopPrice')}
          hint={kindHint}
        />
      )}
      {conditional && (
        <SegTabs
          classPrefix="sp"
          label={t('trailingExec')}
          variant="text"
          className="sp-buyby"
          items={[
            { key: 'LIMIT' as const, label: t('limit') },
            { key: 'MARKET' as const, label: t('market') },
          ]}
          active={f.orderType}
          onChange={(exec) => {
            setForm((s) => {
              const next = withExec(s.formType, s.trailingExec, exec);
              return { ...s, ...next, orderType: executionType(next.formType, next.trailingExec), amount: '', total: '' };
            });
            setPct(null);
          }}
        />
      )}
      {isOco ? (
        <>
          <div className="sp-oco-section text-2">{t('oco.takeProfit')}</div>
          <NumberField
            caption
            id="sp-price"
            label={t('oco.limitPrice')}
            unit={pair.mainCur}
            value={f.price}
            onChange={(v) => setField('price', v)}
            onStep={(d) => step('price', d)}
            error={fieldError('price')}
          />
          <div className="sp-oco-section text-2">{t('oco.stopLoss')}</div>
          <NumberField
            caption
            id="sp-stop"
            label={t('stopPrice')}
            unit={pair.mainCur}
            value={f.stopPrice}
            onChange={(v) => setField('stopPrice', v)}
            onStep={(d) => step('stopPrice', d)}
            error={fieldError('stopPrice')}
          />
          <NumberField
            caption
            id="sp-stop-limit"
            label={t('oco.stopLimitPrice')}
            unit={pair.mainCur}
            value={f.stopLimitPrice}
            onChange={(v) => setField('stopLimitPrice', v)}
            onStep={(d) => step('stopLimitPrice', d)}
            error={fieldError('stopLimitPrice')}
          />
        </>
      ) : f.orderType === 'LIMIT' ? (
        <NumberField
          caption={conditional}
          id="sp-price"
          label={t('price')}
          unit={pair.mainCur}
          value={f.price}
          onChange={(v) => setField('price', v)}
          onStep={(d) => step('price', d)}
          error={fieldError('price')}
        />
      ) : (
        <div className="sp-field sp-field-disabled" aria-label={t('price')}>
          {t('marketPrice')}
        </div>
      )}
      {f.orderType === 'MARKET' && side === 'BUY' && (
        <SegTabs
          classPrefix="sp"
          label={t('buyBy')}
          variant="text"
          className="sp-buyby"
          items={[
            { key: 'total' as const, label: t('byTotal') },
            { key: 'amount' as const, label: t('byAmount') },
          ]}
          active={f.marketBuyBy}
          onChange={(marketBuyBy) => {
            setForm((s) => ({ ...s, marketBuyBy, amount: '', total: '' }));
            setPct(null);
          }}
        />
      )}
      {byTotal ? (
        <NumberField
          caption={conditional}
          id="sp-total"
          label={t('total')}
          unit={pair.mainCur}
          value={f.total}
          onChange={(v) => setField('total', v)}
          error={fieldError('total')}
        />
      ) : (
        <NumberField
          caption={conditional || isOco}
          id="sp-amount"
          label={t('amount')}
          unit={pair.tokenCur}
          value={f.amount}
          onChange={(v) => setField('amount', v)}
          onStep={(d) => step('amount', d)}
          error={fieldError('amount')}
        />
      )}
      {isLogin && (
        <div className="sp-pcts" role="group" aria-label={t('percent')}>
          <span className="sp-pct-track" aria-hidden="true">
            <span className={`sp-pct-fill sp-fill-${side.toLowerCase()}`} style={{ width: `${pct ?? 0}%` }} />
          </span>
          {PERCENTS.map((p) => (
            <button
              key={p}
              type="button"
              className={`sp-pct${pct !== null && p <= pct ? ' sp-pct-on' : ''} sp-pct-${side.toLowerCase()}`}
              aria-pressed={pct === p}
              aria-label={`${p}%`}
              onClick={() => choosePercent(p)}
            >
              <i aria-hidden="true" />
              <span>{p}%</span>
            </button>
          ))}
        </div>
      )}
      {isLogin && (
        <div className="sp-line">
          <span className="text-3">{t('available')}</span>
          <span className="num" data-testid="available">
            {groupThousands(formatFixed(available, side === 'BUY' ? totalDecimals(rules) : rules.qtyDecimals, { mode: 'down' }))} {spendCoin}
          </span>
        </div>
      )}
      {!byTotal && (
        <div className="sp-line">
          <span className="text-3">{t('estTotal')}</span>
          <span className="num">
            {est ? `${f.orderType === 'MARKET' ? '≈ ' : ''}${groupThousands(est)}` : '--'} {pair.mainCur}
          </span>
        </div>
      )}
      {isLogin ? (
        <button
          type="submit"
          disabled={placing.isPending || placingOco.isPending}
          aria-busy={placing.isPending || placingOco.isPending}
          className={`sp-submit sp-submit-${side.toLowerCase()}`}
        >
          {sideLabel}
        </button>
      ) : (
        <div className="sp-auth">
          <button type="button" className="sp-auth-btn sp-auth-login" onClick={() => navigate(`/login?redirect=${back}`)}>
            {t('logIn')}
          </button>
          <button type="button" className="sp-auth-btn sp-auth-signup" onClick={() => navigate(`/register?redirect=${back}`)}>
            {t('signUp')}
          </button>
        </div>
      )}
      {confirming && (
        <ConditionalConfirmDialog
          form={confirming.form}
          pair={pair}
          lastPrice={confirming.lastPrice}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const at = confirming.lastPrice;
            setConfirming(null);
            void send(at);
          }}
        />
      )}
      {confirmingOco && (
        <OcoConfirmDialog
          form={confirmingOco.form}
          pair={pair}
          lastPrice={confirmingOco.lastPrice}
          onCancel={() => setConfirmingOco(null)}
          onConfirm={() => {
            const oco = confirmingOco.form;
            setConfirmingOco(null);
            void sendOco(oco);
          }}
        />
      )}
      {impact && (
        <PriceImpactDialog
          impact={impact}
          pair={pair}
          onCancel={() => setImpact(null)}
          onContinue={() => {
            setImpact(null);
            void send();
          }}
        />
      )}
      <OrderResultDialog order={result} pair={pair} onClose={() => setResult(null)} />
    </form>
  );
}
