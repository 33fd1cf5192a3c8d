/**
 * Balances of a user for the assets screen (spec section 3 "Account types", "Asset item"): the four accounts
 * ASSETS, SPOT, CONTRACT, OTC in that order, each with an item for every asset the engine knows.
 *
 * Valuation, exact with bigint: an asset's USDT value = (available + frozen) x the engine's last price of
 * `<COIN>/USDT` (USDT itself counts 1; an asset with no such market or no trade yet counts 0). Values are
 * kept at 18 decimals (rounded down per item only below 10^-18) and summed there; CNY = USDT x
 * config.usdtCnyRate. Display: balances at the asset's scale; USDT values at the USDT scale and CNY values at
 * 2 decimals, both rounded DOWN (never overstating what the user holds).
 */
import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_KINDS, formatDecimal, pow10, rescaleFloor, tryParseDecimal } from '@exchange/core';
import type { AssetAccount, AssetItem, Assets } from '@exchange/api';
import type { Config } from '../../platform/config/env';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { usdtValue, VALUE_DECIMALS } from '../../platform/shared/valuation';

/** Display decimals of CNY values. */
export const CNY_DECIMALS = 2;

/** Balances and their valuation for the assets screen. */
export interface AssetService {
  /** The user's four accounts with every known asset, converted to USDT and CNY, and the totals. */
  getAssets(userId: string): Assets;
}

/** Builds the service over the engine's balances; throws when config.usdtCnyRate is not a decimal. */
export function createAssetService(deps: { config: Config; host: EnginePort; log: FastifyBaseLogger }): AssetService {
  const engine = deps.host.engine;
  const rate = tryParseDecimal(deps.config.usdtCnyRate, VALUE_DECIMALS);
  if (!rate.ok) throw new Error(`usdtCnyRate "${deps.config.usdtCnyRate}" is not a decimal`);
  const rateUnits = rate.value;
  const cny = (usdt18: bigint) => formatDecimal((usdt18 * rateUnits) / pow10(VALUE_DECIMALS + VALUE_DECIMALS - CNY_DECIMALS), CNY_DECIMALS);

  return {
    getAssets(userId) {
      const usdtScale = engine.asset('USDT')?.scale ?? 8;
      const usdt = (v18: bigint) => formatDecimal(rescaleFloor(v18, VALUE_DECIMALS, usdtScale), usdtScale);
      const assets = engine.assets();
      let grand = 0n;
      const accounts: AssetAccount[] = ACCOUNT_KINDS.map((kind) => {
        let total = 0n;
        const items: AssetItem[] = assets.map((a) => {
          const b = engine.balance(userId, kind, a.code);
          const current = b.available + b.frozen;
          const v = usdtValue(engine, a.code, a.scale, current);
          total += v;
          return {
            coin: a.code,
            available: formatDecimal(b.available, a.scale),
            frozen: formatDecimal(b.frozen, a.scale),
            current: formatDecimal(current, a.scale),
            convertedUsdt: usdt(v),
            convertedCny: cny(v),
          };
        });
        grand += total;
        return { type: kind, totalUsdt: usdt(total), totalCny: cny(total), items };
      });
      return { totalUsdt: usdt(grand), totalCny: cny(grand), usdtCnyRate: deps.config.usdtCnyRate, accounts };
    },
  };
}
