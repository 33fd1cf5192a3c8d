/**
 * Contract order form (spec sections 1, 4, 5, 9): margin mode (cross / isolated) and leverage
 * (1..the market's maximum) of the user in the market, long or short, the order type (limit, market, or the conditional
 * stop-limit, stop-market and trailing stop of ConditionalOrderFields), the price (limit), the lots
 * with the rule "1 lot = 1000 USDT face value at the order price", the available balance of the contract account (with
 * Transfer), the maximum lots, optional take profit / stop loss, and the previews of the core's formulas: quantity,
 * cost (initial margin + taker fee) and estimated liquidation price. A value the market refuses is explained under
 * its field while typing. Submitting applies the spec's rules in order: login ('You are not logged in, log in?'),
 * nickname ('No nickname set, set one?'), price / leverage / lots entered, the 50% band, take profit and stop loss on
 * their side, then the contract balance: when short, a dialog offers the transfer into the contract account
 * (/assets/transfer). With a position open, the leverage sheet shows what the chosen leverage does to its margin. Visitors see the same button; pressing it asks them to log in. The order goes with a client order id kept for a retry after a network failure.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Popup } from 'antd-mobile';
import type { ContractMarket, ContractPosition } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { useRequireNickname } from '../../../shared/guards';
import { useAppStore } from '../../../shared/storage';
import { compareDecimal, formatFixed, groupThousands, mulDecimal } from '../../../shared/format';
import { loadFeedback } from '../../../shared/ui/feedback';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { NumberField } from './NumberField';
import { useContractAccount } from '../api/get-account';
import { useContractSettings } from '../api/get-settings';
import { useLeveragePreview, type LeveragePreview } from '../api/leverage-preview';
import { usePlaceContractOrder } from '../api/place-order';
import { useSetLeverage } from '../api/set-leverage';
import { useSetMarginMode } from '../api/set-margin-mode';
import {
  contractFormMessage,
  contractOrderBody,
  leverageMarks,
  parseLeverage,
  previewOrder,
  rulesFromMarket,
  stepPrice,
  validateContractOrder,
  type ContractContext,
  type ContractFormError,
  type ContractFormValues,
  type MarginMode,
  type PositionSide,
} from '../lib/contract-form';
import { isConditionalKind, type OrderKind } from '../lib/conditional-form';
import { ConditionalOrderFields } from './ConditionalOrderFields';

/** Where the insufficient-balance dialog sends the user: a transfer of USDT into the contract account. */
export const TRANSFER_TO_CONTRACT = '/assets/transfer?from=SPOT&to=CONTRACT&coin=USDT';

/** Default leverage before the settings arrive or for a visitor (the engine's DEFAULT_LEVERAGE). */
export const DEFAULT_LEVERAGE = 20;

/** Asks whether to transfer USDT into the contract account (insufficient balance, contract variant). */
export function useInsufficientDialog(): () => void {
  const { t } = useTranslation('contract');
  const navigate = useNavigate();
  return () => {
    void loadFeedback()
      .then(({ Dialog }) => Dialog.confirm({ content: t('insufficient'), confirmText: t('toTransfer'), cancelText: t('cancel') }))
      .then((ok) => {
        if (ok) navigate(TRANSFER_TO_CONTRACT);
      });
  };
}

/** Props of ContractOrderForm. */
export interface ContractOrderFormProps {
  market: ContractMarket;
  /** The user's position in the market (closing orders need no margin). */
  position?: ContractPosition;
  /** A price chosen in the order book; `n` changes on every tap. */
  priceFill: { price: string; n: number } | null;
}

/**
 * The margin effect of a leverage on the user's position (leveragePreview): "Position margin 5,000.00 → 2,384.00 USDT
 * (releases 2,616.00)", "(holds 500.00 more)" or "(unchanged)"; a hold is rounded up and a release down, so the line
 * never promises more than the server moves.
 */
export function leverageEffectText(t: TFunction<'contract'>, p: LeveragePreview, coin: string): string {
  const from = formatFixed(p.margin, 2, { group: true });
  const sign = compareDecimal(p.marginChange, '0');
  if (sign === 0) return t('leverageEffectSame', { from, coin });
  const n = formatFixed(p.marginChange.replace(/^-/, ''), 2, { group: true, mode: sign > 0 ? 'up' : 'down' });
  const to = formatFixed(p.marginAfter, 2, { group: true, mode: sign > 0 ? 'up' : 'down' });
  return t(sign > 0 ? 'leverageEffectHold' : 'leverageEffectRelease', { from, to, coin, n });
}

/** Props of LeverageSheet. */
interface LeverageSheetProps {
  max: number;
  value: number;
  symbol: string;
  coin: string;
  /** The user has a position in the market: the sheet shows what each leverage does to its margin. */
  hasPosition: boolean;
  onClose: () => void;
  onSave: (n: number) => void;
}

/**
 * The leverage sheet: an input 1..max and the usual marks. With a position in the market, the margin effect of the
 * chosen leverage (leveragePreview, debounced); a leverage the server would refuse shows its message and cannot be
 * confirmed.
 */
function LeverageSheet({ max, value, symbol, coin, hasPosition, onClose, onSave }: LeverageSheetProps) {
  const { t } = useTranslation('contract');
  const [v, setV] = useState(String(value));
  const [err, setErr] = useState<string | null>(null);
  const chosen = parseLeverage(v, max);
  const preview = useLeveragePreview(symbol, chosen, hasPosition);
  const effect = hasPosition && chosen !== null && preview.data?.hasPosition ? preview.data : undefined;
  // Only the answer for the leverage now chosen may block it (the previous one stays shown while the next loads).
  const refused = effect !== undefined && effect.leverage === chosen && !effect.allowed;
  const save = () => {
    const n = parseLeverage(v, max);
    if (n === null) {
      setErr(t('err.leverage_required', { max: String(max) }));
      return;
    }
    onSave(n);
  };
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={t('leverage')}>
        <h2>{t('chooseLeverage', { max })}</h2>
        <NumberField
          id="ct-leverage"
          label={t('leverage')}
          unit="x"
          inputMode="numeric"
          value={v}
          onChange={(x) => {
            setV(x);
            setErr(null);
          }}
          onStep={(d) => setV(String(Math.min(max, Math.max(1, (Number.parseInt(v, 10) || 0) + d))))}
          error={err}
        />
        <div className="ct-lev-marks" role="group" aria-label={t('leverage')}>
          {leverageMarks(max).map((m) => (
            <button key={m} type="button" className="ct-lev-mark num" aria-pressed={v === String(m)} onClick={() => (setV(String(m)), setErr(null))}>
              {t('leverageX', { n: m })}
            </button>
          ))}
        </div>
        {effect && (
          <p className="ct-lev-effect num" role="status" aria-busy={effect.leverage !== chosen} data-testid="leverage-effect">
            {leverageEffectText(t, effect, coin)}
          </p>
        )}
        {refused && (
          <div className="ct-field-error" role="alert" data-testid="leverage-refused">
            {effect.message}
          </div>
        )}
        <div className="ct-sheet-actions">
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button color="primary" onClick={save} disabled={refused}>
            {t('confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}

/** The margin mode sheet. */
function MarginModeSheet({ value, onClose, onSave }: { value: MarginMode; onClose: () => void; onSave: (m: MarginMode) => void }) {
  const { t } = useTranslation('contract');
  return (
    <Popup visible onMaskClick={onClose} onClose={onClose} bodyStyle={{ background: 'var(--ex-card)', borderRadius: '12px 12px 0 0' }}>
      <div className="ct-sheet" role="dialog" aria-label={t('marginMode')}>
        <h2>{t('marginMode')}</h2>
        <div className="ct-lev-marks" role="group" aria-label={t('marginMode')}>
          {(['CROSS', 'ISOLATED'] as const).map((m) => (
            <button key={m} type="button" className="ct-lev-mark" aria-pressed={value === m} onClick={() => onSave(m)}>
              {t(m)}
            </button>
          ))}
        </div>
      </div>
    </Popup>
  );
}

/** Context of the form's checks and previews from the account and the position. */
export function contextOf(available: string, markPrice: string, position: ContractPosition | undefined): ContractContext {
  return {
    available,
    markPrice,
    position: position
      ? { side: position.side, size: position.quantity, cost: mulDecimal(position.avgPrice || '0', position.quantity || '0', 8), margin: position.margin }
      : null,
  };
}

/** The order form. */
export function ContractOrderForm({ market, position, priceFill }: ContractOrderFormProps) {
  const { t } = useTranslation('contract');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const requireNickname = useRequireNickname();
  const insufficient = useInsufficientDialog();
  const rules = rulesFromMarket(market);
  const settings = useContractSettings(market.symbol);
  const account = useContractAccount();
  const placing = usePlaceContractOrder();
  const setLev = useSetLeverage();
  const setMode = useSetMarginMode();
  const [localLeverage, setLocalLeverage] = useState(DEFAULT_LEVERAGE);
  const [localMode, setLocalMode] = useState<MarginMode>('CROSS');
  const [sheet, setSheet] = useState<'leverage' | 'mode' | null>(null);
  const [side, setSide] = useState<PositionSide>('LONG');
  // The type selector as Binance's: Limit | Market | Stop-limit | Stop-market | Trailing stop.
  const [kind, setKind] = useState<OrderKind>('LIMIT');
  const conditional = isConditionalKind(kind) ? kind : null;
  const orderType: 'LIMIT' | 'MARKET' = kind === 'MARKET' ? 'MARKET' : 'LIMIT';
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState('');
  const [withTpSl, setWithTpSl] = useState(false);
  const [takeProfit, setTakeProfit] = useState('');
  const [stopLoss, setStopLoss] = useState('');
  const pending = useRef<{ key: string; id: string } | null>(null);
  const leverage = isLogin && settings.data ? settings.data.leverage : localLeverage;
  const marginMode: MarginMode = isLogin && settings.data ? settings.data.marginMode : localMode;
  const available = isLogin ? (account.data?.availableBalance ?? '0') : '0';
  const form: ContractFormValues = {
    side,
    orderType,
    price,
    lots,
    leverage: String(leverage),
    marginMode,
    takeProfit: withTpSl ? takeProfit : '',
    stopLoss: withTpSl ? stopLoss : '',
  };
  const ctx = contextOf(available, market.markPrice, position);
  const preview = previewOrder(form, rules, ctx);
  const d = market.priceDecimals;

  // New market: the last (or mark) price as the limit price, the rest cleared. An effect event reads the price at the
  // time, so later price moves do not reset what the user typed.
  const resetForMarket = useEffectEvent(() => {
    const p = market.lastPrice || market.markPrice;
    setPrice(p ? formatFixed(p, d) : '');
    setLots('');
    setTakeProfit('');
    setStopLoss('');
  });
  useEffect(() => {
    resetForMarket();
  }, [market.symbol]);
  // The first price of a new market (the ticker may come after the list): fills the price field while it is empty.
  useEffect(() => {
    const p = market.lastPrice || market.markPrice;
    if (p) setPrice((cur) => cur || formatFixed(p, d));
  }, [market.lastPrice, market.markPrice, d]);
  // A price tapped in the book (a new object on every tap).
  useEffect(() => {
    if (priceFill) setPrice(priceFill.price);
  }, [priceFill]);

  const message = (err: ContractFormError) => {
    const m = contractFormMessage(err, side, rules);
    return t(m.key, m.values);
  };
  // Shown under a field once the user typed something the market refuses (empty fields only on submit).
  const live = validateContractOrder(form, rules, ctx);
  const fieldOf = (err: ContractFormError | null): 'price' | 'lots' | 'tp' | 'sl' | null => {
    if (!err) return null;
    if (err === 'price_not_on_tick' || err === 'price_out_of_band') return 'price';
    if (err === 'lots_too_small' || (err === 'insufficient_balance' && isLogin)) return 'lots';
    if (err.startsWith('take_profit')) return 'tp';
    if (err.startsWith('stop_loss')) return 'sl';
    return null;
  };
  const liveField = fieldOf(live);
  const fieldError = (f: 'price' | 'lots' | 'tp' | 'sl') => (live && liveField === f ? message(live) : null);

  const saveLeverage = (n: number) => {
    setSheet(null);
    if (!isLogin) {
      setLocalLeverage(n);
      return;
    }
    setLev.mutate({ symbol: market.symbol, leverage: n }, { onSuccess: () => showToast(t('leverageSaved', { n })) });
  };
  const saveMode = (m: MarginMode) => {
    setSheet(null);
    if (!isLogin) {
      setLocalMode(m);
      return;
    }
    if (m !== marginMode) setMode.mutate({ symbol: market.symbol, marginMode: m }, { onSuccess: () => showToast(t('marginModeSaved', { mode: t(m) })) });
  };

  const submit = async () => {
    if (!requireNickname()) return;
    const err = validateContractOrder(form, rules, ctx);
    if (err === 'insufficient_balance') {
      insufficient();
      return;
    }
    if (err) {
      showToast(message(err));
      return;
    }
    const body = contractOrderBody(market.symbol, form, '', '');
    delete body.quantity;
    delete body.clientOrderId;
    const key = JSON.stringify(body);
    if (!pending.current || pending.current.key !== key) pending.current = { key, id: crypto.randomUUID() };
    try {
      const placed = await placing.mutateAsync({ ...body, clientOrderId: pending.current.id });
      pending.current = null;
      showToast(placed.status === 'FILLED' ? t('orderFilled') : t('orderPlaced'));
      setLots('');
    } catch (e) {
      if (isApiError(e, 'insufficient_balance') || isApiError(e, 'contract_insufficient_balance')) insufficient();
      else if (isApiError(e)) showToast(e.message);
      if (!(isApiError(e, 'NETWORK') || isApiError(e, 'TIMEOUT'))) pending.current = null;
    }
  };

  const sideLabel = side === 'LONG' ? t('openLong') : t('openShort');
  const lotsNum = Number.parseInt(lots || '0', 10);
  return (
    <form
      className="ct-form"
      aria-label={sideLabel}
      onSubmit={(e) => {
        e.preventDefault();
        // A conditional order is sent by its own button, after its confirm.
        if (!conditional) void submit();
      }}
    >
      <div className="ct-row">
        <button
          type="button"
          className="ct-mode-btn"
          aria-label={`${t('marginMode')}: ${t(marginMode)}`}
          onClick={() => setSheet('mode')}
          data-testid="margin-mode"
        >
          {t(marginMode)}
        </button>
        <button
          type="button"
          className="ct-lev-btn num"
          aria-label={`${t('leverage')}: ${t('leverageX', { n: leverage })}`}
          onClick={() => setSheet('leverage')}
          data-testid="leverage"
        >
          {t('leverageX', { n: leverage })}
        </button>
      </div>
      <div role="tablist" aria-label={t('side')} className="ct-sides">
        {(['LONG', 'SHORT'] as const).map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={side === s}
            className={`ct-side ct-side-${s.toLowerCase()}${side === s ? ' ct-side-on' : ''}`}
            onClick={() => setSide(s)}
          >
            {s === 'LONG' ? t('long') : t('short')}
          </button>
        ))}
      </div>
      <SegTabs
        classPrefix="ct"
        label={t('orderType')}
        variant="pill"
        className="ct-kinds"
        items={[
          { key: 'LIMIT' as const, label: t('limit') },
          { key: 'MARKET' as const, label: t('market') },
          { key: 'STOP_LIMIT' as const, label: t('cond.kind.STOP_LIMIT') },
          { key: 'STOP_MARKET' as const, label: t('cond.kind.STOP_MARKET') },
          { key: 'TRAILING_STOP' as const, label: t('cond.kind.TRAILING_STOP') },
        ]}
        active={kind}
        onChange={setKind}
      />
      {conditional ? (
        <ConditionalOrderFields market={market} rules={rules} kind={conditional} side={side} hasPosition={isLogin && !!position} />
      ) : (
        <>
          {orderType === 'LIMIT' ? (
            <NumberField
              id="ct-price"
              label={t('price')}
              unit={market.quote}
              value={price}
              onChange={setPrice}
              onStep={(dir) => setPrice(stepPrice(price, market.tickSize, d, dir))}
              error={fieldError('price')}
            />
          ) : (
            <div className="ct-field ct-field-disabled" aria-label={t('price')}>
              {t('marketPrice')}
            </div>
          )}
          <NumberField
            id="ct-lots"
            label={t('lots')}
            unit=""
            inputMode="numeric"
            value={lots}
            onChange={setLots}
            onStep={(dir) => setLots(String(Math.max(0, lotsNum + dir)) === '0' ? '' : String(Math.max(0, lotsNum + dir)))}
            error={fieldError('lots')}
          />
          <div className="ct-rule" data-testid="lot-rule">
            {t('lotRule', { n: groupThousands(market.lotNotional.replace(/\.0*$/, '')) })}
          </div>
          {isLogin && (
            <div className="ct-line">
              <span className="text-3">{t('available')}</span>
              <span className="num" data-testid="available">
                {formatFixed(available, 2, { group: true, mode: 'down' })} {market.quote}
                <button type="button" className="ct-link-btn" onClick={() => navigate(TRANSFER_TO_CONTRACT)}>
                  {t('transfer')}
                </button>
              </span>
            </div>
          )}
          {isLogin && (
            <div className="ct-line">
              <span className="text-3">{t('maxLots')}</span>
              <span className="num" data-testid="max-lots">
                {preview.maxLots || '--'} {t('lotsUnit')}
              </span>
            </div>
          )}
          <label className="ct-tpsl-toggle">
            <input type="checkbox" checked={withTpSl} onChange={(e) => setWithTpSl(e.target.checked)} />
            {t('tpsl')}
          </label>
          {withTpSl && (
            <>
              <NumberField
                caption
                id="ct-tp"
                label={t('takeProfit')}
                unit={market.quote}
                value={takeProfit}
                onChange={setTakeProfit}
                error={fieldError('tp')}
              />
              <NumberField caption id="ct-sl" label={t('stopLoss')} unit={market.quote} value={stopLoss} onChange={setStopLoss} error={fieldError('sl')} />
            </>
          )}
          <div className="ct-line">
            <span className="text-3">{t('quantity')}</span>
            <span className="num">{preview.quantity ? `${groupThousands(preview.quantity)} ${market.base}` : '--'}</span>
          </div>
          <div className="ct-line">
            <span className="text-3">{t('cost')}</span>
            <span className="num" data-testid="cost">
              {preview.cost ? `${formatFixed(preview.cost, 2, { group: true, mode: 'up' })} ${market.quote}` : '--'}
            </span>
          </div>
          <div className="ct-line">
            <span className="text-3">{t('estLiq')}</span>
            <span className="num" data-testid="est-liq">
              {preview.liquidationPrice && preview.liquidationPrice !== '--' ? formatFixed(preview.liquidationPrice, d, { group: true }) : '--'}
            </span>
          </div>
          {/* Visitors see the button too: pressing it asks 'You are not logged in, log in?' (spec section 4). */}
          {/* A paused contract (stale index) accepts no opening order: the banner above says why. */}
          <button
            type="submit"
            disabled={placing.isPending || market.paused === true}
            aria-busy={placing.isPending}
            title={market.paused ? t('pausedSubmit') : undefined}
            className={`ct-submit ct-submit-${side.toLowerCase()}`}
          >
            {sideLabel}
          </button>
        </>
      )}
      {sheet === 'leverage' && (
        <LeverageSheet
          max={rules.brackets[0]?.maxLeverage ?? 1}
          value={leverage}
          symbol={market.symbol}
          coin={market.quote}
          hasPosition={isLogin && !!position}
          onClose={() => setSheet(null)}
          onSave={saveLeverage}
        />
      )}
      {sheet === 'mode' && <MarginModeSheet value={marginMode} onClose={() => setSheet(null)} onSave={saveMode} />}
    </form>
  );
}
