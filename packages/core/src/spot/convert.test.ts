/**
 * Convert tests: the preview equals what the MARKET IOC order then does (fast-check over random books, both
 * directions, own orders in the book, fees), the guard refuses a convert that would receive less than quoted and
 * changes nothing, an expired quote is refused, a retry returns the first order, amounts off the step are refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COIN, engineWithMarket, fund, limit, nextTs, ok, PX, QTY } from '../../test/fixtures';
import type { Command, Side } from '../types';

const conv = (userId: string, side: Side, amount: bigint, minReceive: bigint, over: Partial<Record<string, unknown>> = {}): Command =>
  ({
    type: 'convert',
    ts: nextTs(),
    userId,
    symbol: 'BTC/USDT',
    side,
    amount,
    minReceive,
    expiresTs: 4_000_000_000_000,
    clientId: `cv-${nextTs()}`,
    ...over,
  }) as Command;

/** Maker 'mm' with asks at 100 and 101 (1 BTC each) and bids at 99 and 98 (1 BTC each); taker 'u' funded. */
function book() {
  const e = engineWithMarket();
  fund(e, 'mm', 'BTC', 10n * COIN);
  fund(e, 'mm', 'USDT', 10_000n * COIN);
  fund(e, 'u', 'BTC', 10n * COIN);
  fund(e, 'u', 'USDT', 10_000n * COIN);
  ok(e, limit('mm', 'SELL', 100n * PX, QTY));
  ok(e, limit('mm', 'SELL', 101n * PX, QTY));
  ok(e, limit('mm', 'BUY', 99n * PX, QTY));
  ok(e, limit('mm', 'BUY', 98n * PX, QTY));
  return e;
}
const spot = (e: ReturnType<typeof book>, a: string) => e.balance('u', 'SPOT', a).available;

describe('convert', () => {
  it('sells BTC for USDT across two levels, the taker fee shown and taken, at least the quote received', () => {
    const e = book();
    const p = e.convertPreview('BTC/USDT', 'SELL', 'u', (15n * COIN) / 10n);
    // 1 BTC at 99 + 0.5 at 98 = 148 USDT; taker fee 0.2% per fill: 0.198 + 0.098 = 0.296
    expect(p).toEqual({ spent: 150_000_000n, receive: 14_770_400_000n, fee: 29_600_000n, filledQty: 1_500_000n, filledQuote: 14_800_000_000n, complete: true });
    const before = spot(e, 'USDT');
    const r = e.execute(conv('u', 'SELL', 150_000_000n, p!.receive));
    expect(r.code).toBe('ok');
    expect(r.order).toMatchObject({ orderType: 'MARKET', timeInForce: 'IOC', status: 'FILLED', fee: 29_600_000n });
    expect(spot(e, 'USDT') - before).toBe(p!.receive);
    expect(spot(e, 'BTC')).toBe(10n * COIN - 150_000_000n);
  });

  it('buys BTC with USDT; what a step cannot buy stays', () => {
    const e = book();
    const p = e.convertPreview('BTC/USDT', 'BUY', 'u', 150n * COIN)!;
    // 1 BTC at 100, then 50 USDT / 101 = 0.495049 BTC; fee 0.2% of each in BTC, rounded up
    expect(p.filledQty).toBe(1_495_049n);
    expect(p.complete).toBe(true);
    expect(e.convertPreview('BTC/USDT', 'BUY', 'u', 500n * COIN)!.complete).toBe(false); // the book holds 201 USDT of asks
    expect(e.convertPreview('BTC/USDT', 'SELL', 'u', 3n * COIN)!.complete).toBe(false);
    expect(p.receive).toBe(100_000_000n - 200_000n + 49_504_900n - 99_010n);
    const r = e.execute(conv('u', 'BUY', 150n * COIN, p.receive));
    expect(r.code).toBe('ok');
    expect(spot(e, 'BTC') - 10n * COIN).toBe(p.receive);
    expect(10_000n * COIN - spot(e, 'USDT')).toBe(p.spent);
  });

  it('refuses below the guaranteed amount and changes nothing; refuses an expired quote; a retry returns the first order', () => {
    const e = book();
    const p = e.convertPreview('BTC/USDT', 'SELL', 'u', COIN)!;
    const hash = e.stateHash();
    expect(e.execute(conv('u', 'SELL', COIN, p.receive + 1n)).code).toBe('convert_slippage');
    expect(e.stateHash()).toBe(hash);
    // The book moves against the quote: the bid at 99 is taken by someone else first.
    fund(e, 'x', 'BTC', COIN);
    ok(e, { type: 'placeOrder', ts: nextTs(), userId: 'x', symbol: 'BTC/USDT', side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: QTY });
    const h2 = e.stateHash();
    expect(e.execute(conv('u', 'SELL', COIN, p.receive)).code).toBe('convert_slippage');
    expect(e.stateHash()).toBe(h2);
    const ts = nextTs();
    expect(e.execute(conv('u', 'SELL', COIN, 0n, { ts, expiresTs: ts - 1 })).code).toBe('convert_quote_expired');
    expect(e.stateHash()).toBe(h2);
    expect(e.execute(conv('u', 'SELL', 1n, 0n)).code).toBe('quantity_not_on_step');
    expect(e.execute(conv('u', 'SELL', 0n, 0n)).code).toBe('amount_invalid');
    expect(e.execute(conv('u', 'SELL', 100n * COIN, 0n)).code).toBe('insufficient_balance');
    expect(e.execute(conv('u', 'SELL', COIN, 0n, { symbol: 'ETH/USDT' })).code).toBe('market_not_found');
    const first = e.execute(conv('u', 'SELL', COIN, 0n, { clientId: 'q1' }));
    expect(first.code).toBe('ok');
    const again = e.execute(conv('u', 'SELL', COIN, 0n, { clientId: 'q1', expiresTs: 0 }));
    expect(again).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: first.order!.orderId });
  });

  it('the preview is exactly what the order does (property: random books, own orders, both sides)', () => {
    const level = fc.record({
      owner: fc.constantFrom('mm', 'mm', 'mm', 'u'),
      px: fc.integer({ min: 90, max: 110 }),
      qty: fc.integer({ min: 1, max: 3_000_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(level, { maxLength: 10 }),
        fc.array(level, { maxLength: 10 }),
        fc.constantFrom<Side>('BUY', 'SELL'),
        fc.bigInt({ min: 1n, max: 500n * COIN }),
        (asks, bids, side, raw) => {
          const e = engineWithMarket();
          for (const who of ['mm', 'u']) {
            fund(e, who, 'BTC', 100n * COIN);
            fund(e, who, 'USDT', 100_000n * COIN);
          }
          for (const a of asks) ok(e, limit(a.owner, 'SELL', BigInt(a.px + 20) * PX, BigInt(a.qty)));
          for (const b of bids) ok(e, limit(b.owner, 'BUY', BigInt(b.px - 20) * PX, BigInt(b.qty)));
          const amount = side === 'SELL' ? (raw % (5n * COIN)) - ((raw % (5n * COIN)) % 100n) + 100n : raw;
          const p = e.convertPreview('BTC/USDT', side, 'u', amount)!;
          const quote = side === 'SELL' ? 'USDT' : 'BTC';
          const before = e.balance('u', 'SPOT', quote).available;
          const r = e.execute(conv('u', side, amount, p.receive));
          if (r.code !== 'ok') {
            expect(['no_liquidity']).toContain(r.code);
            return;
          }
          expect(e.balance('u', 'SPOT', quote).available - before).toBe(p.receive);
          expect(r.order!.filledQty).toBe(p.filledQty);
          expect(r.order!.filledQuote).toBe(p.filledQuote);
          expect(r.order!.fee).toBe(p.fee);
          for (const [, v] of e.assetTotals()) expect(v).toBe(0n);
        },
      ),
      { numRuns: 200 },
    );
  });
});
