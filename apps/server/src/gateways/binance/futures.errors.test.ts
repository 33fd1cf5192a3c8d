/**
 * The futures error mapping (futures.errors.ts) of rejections that an API test cannot reach cheaply: an order's
 * 10,000th modification (the engine's amend_limit_reached, tested in packages/core perp-amend.test.ts) is Binance's
 * -5026, a paused contract's -4400, and an error of another kind passes through unchanged.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/shared/errors';
import { BinanceError } from './binance.errors';
import { futuresError } from './futures.errors';

describe('futuresError', () => {
  it('maps the engine rejections to Binance USDⓈ-M codes', () => {
    const of = (code: ConstructorParameters<typeof AppError>[0]) => {
      const e = futuresError(new AppError(code, 400));
      expect(e).toBeInstanceOf(BinanceError);
      return [(e as BinanceError).code, (e as BinanceError).msg, (e as BinanceError).status];
    };
    expect(of('amend_limit_reached')).toEqual([-5026, 'Exceed maximum modify order limit.', 400]);
    expect(of('index_stale')).toEqual([-4400, 'Index price is stale, only reduceOnly order is allowed, please try again later.', 400]);
    expect(of('would_take_liquidity')[0]).toBe(-5022);
    const other = new Error('boom');
    expect(futuresError(other)).toBe(other);
  });
});
