/**
 * Self-describing fixtures for engine tests: a BTC/USDT market (price 2 decimals, qty 6 decimals,
 * both assets scale 8, tick 0.01, step 0.000001, maker 0.1%, taker 0.2%) and command builders.
 */
import { Engine, type EngineOptions } from '../src/engine';
import type { Command, CommandResult, MarketConfig, StpMode, TimeInForce } from '../src/types';

/** 1 coin in smallest units (scale 8). */
export const COIN = 100_000_000n;
/** Price units per 1 USDT (priceDecimals 2). */
export const PX = 100n;
/** Qty units per 1 BTC (qtyDecimals 6). */
export const QTY = 1_000_000n;

export const btcUsdt: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 6,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 0n,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
  status: 'TRADING',
};

let ts = 1_700_000_000_000;
/** A fresh increasing timestamp (Unix ms). */
export function nextTs(): number {
  return ++ts;
}

/** Engine with BTC, USDT and BTC/USDT (optionally with config overrides). */
export function engineWithMarket(overrides: Partial<MarketConfig> = {}, opts?: EngineOptions): Engine {
  const e = new Engine(opts);
  ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'BTC', scale: 8 } });
  ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'USDT', scale: 8 } });
  ok(e, { type: 'addMarket', ts: nextTs(), market: { ...btcUsdt, ...overrides } });
  return e;
}

/** Execute and assert the command was accepted. */
export function ok(e: Engine, cmd: Command): CommandResult {
  const r = e.execute(cmd);
  if (r.code !== 'ok') throw new Error(`expected ok for ${cmd.type}, got ${r.code}`);
  return r;
}

/** Credit a user's SPOT account from the faucet (amount in smallest units). */
export function fund(e: Engine, userId: string, asset: string, amount: bigint): void {
  ok(e, { type: 'deposit', ts: nextTs(), userId, asset, account: 'SPOT', amount, from: '@faucet' });
}

/** A LIMIT order command (price in price units, qty in qty units). */
export function limit(
  userId: string,
  side: 'BUY' | 'SELL',
  price: bigint,
  quantity: bigint,
  timeInForce: TimeInForce = 'GTC',
  extra: { clientOrderId?: string; stp?: StpMode } = {},
): Command {
  return { type: 'placeOrder', ts: nextTs(), userId, symbol: 'BTC/USDT', side, orderType: 'LIMIT', timeInForce, price, quantity, ...extra };
}

/** A MARKET order command by quantity (qty units) or by quote amount (quote units). */
export function market(
  userId: string,
  side: 'BUY' | 'SELL',
  by: { quantity: bigint } | { quoteAmount: bigint },
  extra: { clientOrderId?: string; stp?: StpMode; timeInForce?: TimeInForce } = {},
): Command {
  const { timeInForce = 'IOC', ...rest } = extra;
  return { type: 'placeOrder', ts: nextTs(), userId, symbol: 'BTC/USDT', side, orderType: 'MARKET', timeInForce, ...by, ...rest };
}
