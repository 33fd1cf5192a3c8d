/**
 * Spot order form (issue 3 "Spot trading"): buy/sell, limit or market, price and amount inputs with
 * steppers by the market's tickSize / stepSize and decimals limited to its precision, a
 * percent-of-available selector (0/25/50/75/100 %) computing the amount or total exactly, the
 * available balance of the SPOT account, the estimated total, and market BUY by total or by amount.
 * Submitting applies the spec's rules in order: login ('You are not logged in, log in?'), nickname
 * ('No nickname set, set one?'), the form rules and the insufficient-balance message, then sends the
 * order with a client order id that is kept for a retry of the same order after a network failure.
 */
import { useEffect, useRef, useState } from 'react';
import type { Pair } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { useRequireNickname } from '../../../shared/guards';
import { useAppStore } from '../../../shared/storage';
import { formatFixed, groupThousands } from '../../../shared/format';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useSpotBalance } from '../api/get-spot-assets';
import { useSetEntrust } from '../api/set-entrust';
import {
  entrustBody, estimatedTotal, newClientOrderId, percentToForm, sanitizeDecimalInput, stepBy, totalDecimals, validateOrder,
  type MarketRules, type OrderFormValues, type Side,
} from '../lib/order-form';

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
    tokenCur: p.tokenCur, mainCur: p.mainCur, priceDecimals: p.priceDecimals, qtyDecimals: p.qtyDecimals,
    tickSize: p.tickSize, stepSize: p.stepSize, minQty: p.minQty, minNotional: p.minNotional,
  };
}

interface FieldProps {
  id: string;
  label: string;
  unit: string;
  value: string;
  onChange: (v: string) => void;
  onStep?: (dir: 1 | -1) => void;
}

function NumberField({ id, label, unit, value, onChange, onStep }: FieldProps) {
  const { t } = useTranslation('spot');
  return (
    <div className="sp-field">
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
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {onStep && (
        <button type="button" className="sp-step" aria-label={t('increase', { field: label })} onClick={() => onStep(1)}>
          +
        </button>
      )}
    </div>
  );
}

/** The order form. */
export function OrderForm({ pair, side, onSideChange, priceFill }: OrderFormProps) {
  const { t } = useTranslation('spot');
  const rules = rulesOf(pair);
  const isLogin = useAppStore((s) => s.isLogin);
  const requireNickname = useRequireNickname();
  const placing = useSetEntrust();
  const [form, setForm] = useState<OrderFormValues>({ side, orderType: 'LIMIT', marketBuyBy: 'total', price: '', amount: '', total: '' });
  const [pct, setPct] = useState<number | null>(null);
  const pending = useRef<{ key: string; id: string } | null>(null);
  const f = { ...form, side };
  const spendCoin = side === 'BUY' ? pair.mainCur : pair.tokenCur;
  const balance = useSpotBalance(spendCoin);
  const available = isLogin ? balance.available : '0';

  // New pair: reset the form with the last price as the limit price.
  useEffect(() => {
    setForm((s) => ({ ...s, price: pair.price && pair.price !== '0' && !/^0(\.0*)?$/.test(pair.price) ? formatFixed(pair.price, pair.priceDecimals) : '', amount: '', total: '' }));
    setPct(null);
    // Only when the pair changes; later price moves must not overwrite what the user typed.
  }, [pair.pairsName]);

  // First real price of a new market (the ticker may arrive after the pair).
  useEffect(() => {
    if (!form.price && pair.price && !/^0(\.0*)?$/.test(pair.price)) setForm((s) => ({ ...s, price: formatFixed(pair.price, pair.priceDecimals) }));
  }, [pair.price]);

  useEffect(() => {
    if (priceFill) setField('price', priceFill.price);
  }, [priceFill?.n]);

  useEffect(() => {
    setForm((s) => ({ ...s, amount: '', total: '' }));
    setPct(null);
  }, [side]);

  function applyPercent(p: number, next: OrderFormValues) {
    return { ...next, ...percentToForm({ form: { ...next, side }, rules, available, lastPrice: pair.price, percent: p }) };
  }

  function setField(field: 'price' | 'amount' | 'total', raw: string) {
    const decimals = field === 'price' ? rules.priceDecimals : field === 'amount' ? rules.qtyDecimals : totalDecimals(rules);
    const v = sanitizeDecimalInput(raw, decimals);
    setForm((s) => {
      const next = { ...s, [field]: v };
      if (field === 'price' && pct !== null && side === 'BUY') return applyPercent(pct, next);
      return next;
    });
    if (field !== 'price') setPct(null);
  }

  const step = (field: 'price' | 'amount', dir: 1 | -1) => setField(field, stepBy(form[field], field === 'price' ? rules.tickSize : rules.stepSize, dir));

  const choosePercent = (p: number) => {
    setPct(p);
    setForm((s) => applyPercent(p, s));
  };

  const est = estimatedTotal(f, rules, pair.price);
  const byTotal = f.orderType === 'MARKET' && side === 'BUY' && f.marketBuyBy === 'total';

  const submit = async () => {
    if (!requireNickname()) return;
    const err = validateOrder(f, rules, available, pair.price);
    if (err) {
      showToast(t(`err.${err}`));
      return;
    }
    const base = entrustBody(pair.pairsName, f, '');
    const key = JSON.stringify(base);
    if (!pending.current || pending.current.key !== key) pending.current = { key, id: newClientOrderId() };
    try {
      await placing.mutateAsync({ ...base, clientOrderId: pending.current.id });
      pending.current = null;
      showToast(t('orderPlaced'));
      setForm((s) => ({ ...s, amount: '', total: '' }));
      setPct(null);
    } catch (e) {
      // Keep the id only when the order may have reached the server (network failure or timeout).
      if (!(isApiError(e, 'NETWORK') || isApiError(e, 'TIMEOUT'))) pending.current = null;
    }
  };

  const sideLabel = side === 'BUY' ? t('buyCoin', { coin: pair.tokenCur }) : t('sellCoin', { coin: pair.tokenCur });
  return (
    <form
      className="sp-form"
      aria-label={sideLabel}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
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
        items={[
          { key: 'LIMIT' as const, label: t('limit') },
          { key: 'MARKET' as const, label: t('market') },
        ]}
        active={f.orderType}
        onChange={(orderType) => {
          setForm((s) => ({ ...s, orderType, amount: '', total: '' }));
          setPct(null);
        }}
      />
      {f.orderType === 'LIMIT' ? (
        <NumberField id="sp-price" label={t('price')} unit={pair.mainCur} value={f.price} onChange={(v) => setField('price', v)} onStep={(d) => step('price', d)} />
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
        <NumberField id="sp-total" label={t('total')} unit={pair.mainCur} value={f.total} onChange={(v) => setField('total', v)} />
      ) : (
        <NumberField id="sp-amount" label={t('amount')} unit={pair.tokenCur} value={f.amount} onChange={(v) => setField('amount', v)} onStep={(d) => step('amount', d)} />
      )}
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
      <div className="sp-line">
        <span className="text-3">{t('available')}</span>
        <span className="num" data-testid="available">
          {groupThousands(formatFixed(available, side === 'BUY' ? totalDecimals(rules) : rules.qtyDecimals, { mode: 'down' }))} {spendCoin}
        </span>
      </div>
      {!byTotal && (
        <div className="sp-line">
          <span className="text-3">{t('estTotal')}</span>
          <span className="num">{est ? `${f.orderType === 'MARKET' ? '≈ ' : ''}${groupThousands(est)}` : '--'} {pair.mainCur}</span>
        </div>
      )}
      <button type="submit" disabled={placing.isPending} aria-busy={placing.isPending} className={`sp-submit sp-submit-${side.toLowerCase()}`}>
        {sideLabel}
      </button>
    </form>
  );
}
