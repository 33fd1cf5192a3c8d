/**
 * Pure rules of the adjust-margin sheet of an isolated position (Binance's "Adjust margin": add or remove margin).
 * The limits are the engine's (packages/core perp-engine perpAdjustMargin): adding may use the contract account's
 * available balance; removing may take at most perp/math maxRemovableMargin (what keeps margin + unrealized loss at
 * the initial margin of the position at the mark price). The estimated liquidation price after the change is
 * perp/math liquidationPrice over the new margin, the server's formula for an isolated position. The position's cost
 * (entry value) is read back exactly from the wire: a long's unrealized PnL is value - cost, a short's cost - value.
 * Integers only (bigint).
 */
import { liquidationPrice, maxRemovableMargin, perpNotionalMult } from '@exchange/core';
import type { ContractPosition } from '@exchange/api';
import { formatDecimal } from '@exchange/money';
import { isCompleteDecimal, rulesUnits, SETTLE_SCALE, toUnits, type ContractRules } from './contract-form';

/** Add margin to the position, or remove some of it. */
export type AdjustMarginMode = 'ADD' | 'REMOVE';

/** Reasons the sheet refuses an amount before sending (each has a message contract:err.<code>). */
export type AdjustMarginError = 'amount_required' | 'amount_decimals' | 'add_too_much' | 'remove_too_much';

/** The fields of a position (contract.ts ContractPosition) the sheet works from. */
export type AdjustMarginPosition = Pick<
  ContractPosition,
  | 'symbol'
  | 'side'
  | 'marginMode'
  | 'leverage'
  | 'quantity'
  | 'margin'
  | 'positionValue'
  | 'unrealizedPnl'
  | 'liquidationPrice'
  | 'priceDecimals'
  | 'qtyDecimals'
>;

/** What the sheet shows for an amount (USDT and prices as decimal strings; '' when unknown). */
export interface AdjustMarginPreview {
  /** the contract account's available balance: the most that may be added */
  maxAdd: string;
  /** the most that may be removed now (perp/math maxRemovableMargin) */
  maxRemove: string;
  /** the margin after the change ('' for no valid amount) */
  newMargin: string;
  /** estimated liquidation price after the change: '' unknown (no valid amount or no rules), '--' none */
  liquidationPrice: string;
}

/** Quote units of a signed decimal (a margin, a value, an unrealized PnL "-12.5"), or null (toUnits). */
const units = (v: string) => toUnits(v, SETTLE_SCALE);

/** The position's cost (entry value, quote units) from its value and unrealized PnL at the same mark price. */
export function positionCost(p: Pick<ContractPosition, 'side' | 'positionValue' | 'unrealizedPnl'>): bigint {
  const value = units(p.positionValue) ?? 0n;
  const upnl = units(p.unrealizedPnl) ?? 0n;
  return p.side === 'LONG' ? value - upnl : value + upnl;
}

/** The most margin (quote units) that may be removed at the position's mark price (the engine's rule). */
export function maxRemovable(p: AdjustMarginPosition): bigint {
  if (p.marginMode !== 'ISOLATED') return 0n;
  return maxRemovableMargin(units(p.margin) ?? 0n, units(p.positionValue) ?? 0n, units(p.unrealizedPnl) ?? 0n, p.leverage);
}

/** The amount typed as quote units, or the reason it is refused as a number ('' and 0 are required, > 8 decimals). */
export function parseMarginAmount(amount: string): bigint | 'amount_required' | 'amount_decimals' {
  if (!isCompleteDecimal(amount)) return 'amount_required';
  if ((amount.split('.')[1] ?? '').length > SETTLE_SCALE) return 'amount_decimals';
  const u = units(amount) ?? 0n;
  return u > 0n ? u : 'amount_required';
}

/**
 * Checks an amount; null when it may be sent: a number above 0 with at most 8 decimals, at most the available balance
 * (adding) or the removable margin (removing).
 */
export function validateAdjustMargin(mode: AdjustMarginMode, amount: string, p: AdjustMarginPosition, available: string): AdjustMarginError | null {
  const u = parseMarginAmount(amount);
  if (typeof u === 'string') return u;
  if (mode === 'ADD') return u > (units(available) ?? 0n) ? 'add_too_much' : null;
  return u > maxRemovable(p) ? 'remove_too_much' : null;
}

/**
 * The previews of the sheet: the maximum of each direction, the new margin and the estimated liquidation price over
 * it (perp/math liquidationPrice with the market's brackets; unknown without `rules`).
 */
export function previewAdjustMargin(
  mode: AdjustMarginMode,
  amount: string,
  p: AdjustMarginPosition,
  available: string,
  rules?: ContractRules,
): AdjustMarginPreview {
  const avail = units(available) ?? 0n;
  const out: AdjustMarginPreview = {
    maxAdd: formatDecimal(avail > 0n ? avail : 0n, SETTLE_SCALE),
    maxRemove: formatDecimal(maxRemovable(p), SETTLE_SCALE),
    newMargin: '',
    liquidationPrice: '',
  };
  const u = parseMarginAmount(amount);
  if (typeof u === 'string') return out;
  const margin = (units(p.margin) ?? 0n) + (mode === 'ADD' ? u : -u);
  if (margin < 0n) return out;
  out.newMargin = formatDecimal(margin, SETTLE_SCALE);
  if (!rules) return out;
  const size = toUnits(p.quantity, p.qtyDecimals) ?? 0n;
  const lp = liquidationPrice(p.side, size, positionCost(p), margin, rulesUnits(rules).tiers, perpNotionalMult(SETTLE_SCALE, p.priceDecimals, p.qtyDecimals));
  out.liquidationPrice = lp === null || lp === 0n ? '--' : formatDecimal(lp, p.priceDecimals);
  return out;
}

/** Body of the adjustMargin request: the amount, negative to remove ("-5"); trailing zeros kept as typed. */
export function adjustMarginBody(symbol: string, mode: AdjustMarginMode, amount: string): { symbol: string; amount: string } {
  return { symbol, amount: mode === 'REMOVE' ? `-${amount}` : amount };
}
