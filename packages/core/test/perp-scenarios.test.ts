/**
 * Hand-built scenarios for what the property test found in the engine, each a short story with figures:
 * the insurance fund's balance must stay explained by its entries (seed + the liquidated events' insuranceDelta) and
 * never go below zero, including when a stop loss closes an isolated position at a price past its bankruptcy.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine';
import type { Command } from '../src/types';
import { T0, USDT, must, perpEngine } from './perp-fixture';

const SYM = 'BTC/USDT';
const fund = (e: Engine): bigint => {
  const b = e.balance('@insurance', 'SYSTEM', 'USDT');
  return b.available + b.frozen;
};
const order = (
  ts: number,
  userId: string,
  side: 'BUY' | 'SELL',
  price: bigint,
  quantity: bigint,
  extra: Partial<Extract<Command, { type: 'perpPlaceOrder' }>> = {},
): Command => ({
  type: 'perpPlaceOrder',
  ts,
  userId,
  symbol: SYM,
  side,
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price,
  quantity,
  ...extra,
});

describe('perp scenarios', () => {
  it('a stop loss that fills past bankruptcy (thin book far below the mark) does not take money from the fund unrecorded', () => {
    const e = perpEngine([
      ['mm', 1_000_000n * USDT],
      ['u', 1_000n * USDT],
    ]);
    let ts = T0 + 1000;
    must(e, { type: 'perpMarkPrice', ts: ++ts, symbol: SYM, indexPrice: 400_000n }); // 40,000.0
    must(e, { type: 'perpSetMarginMode', ts: ++ts, userId: 'u', symbol: SYM, marginMode: 'ISOLATED' });
    must(e, { type: 'perpSetLeverage', ts: ++ts, userId: 'u', symbol: SYM, leverage: 125 });
    // u buys 0.025 BTC (1,000 USDT) at 40,000 at 125x: margin 8 USDT; stop loss at 39,900 (liquidation ~39,840)
    const ask = must(e, order(++ts, 'mm', 'SELL', 400_000n, 1_000n));
    must(e, order(++ts, 'u', 'BUY', 400_000n, 25n, { stopLoss: 399_000n }));
    expect(e.position('u', SYM)?.margin).toBe(8n * USDT);
    const askId = ask.events.find((x) => x.type === 'perpOrderAccepted');
    must(e, { type: 'perpCancelOrder', ts: ++ts, userId: 'mm', orderId: askId?.type === 'perpOrderAccepted' ? askId.order.orderId : '?' });
    // the maker now bids 39,000 and asks 40,780: mid 39,890
    must(e, order(++ts, 'mm', 'BUY', 390_000n, 1_000n));
    must(e, order(++ts, 'mm', 'SELL', 407_800n, 1_000n));
    const before = fund(e);
    // index 39,890: mark = median(39,890, 39,890 + basis 0, last 40,000) = 39,890: the stop loss fires, liquidation not
    const r = must(e, { type: 'perpMarkPrice', ts: ++ts, symbol: SYM, indexPrice: 398_900n });
    const mark = r.events.find((x) => x.type === 'markPrice');
    expect(mark?.type === 'markPrice' ? mark.state.markPrice : null).toBe(398_900n);
    let deltas = 0n;
    for (const ev of r.events) if (ev.type === 'liquidated') deltas += ev.insuranceDelta;
    // the close sold at 39,000: a loss of 25 USDT on 8 USDT of margin. Whoever pays the 17 USDT, the fund's change
    // must be recorded (a liquidated event) and the fund may not go below zero.
    expect(fund(e) - before, "the fund's change is what the events record").toBe(deltas);
    expect(fund(e) >= 0n, 'the fund never goes below zero').toBe(true);
    for (const [asset, t] of e.assetTotals()) expect(t, asset).toBe(0n);
  });

  it("a gap tick: the fund's close fills a stale resting order, and the position it opens is not left beyond bankruptcy", () => {
    const e = perpEngine([
      ['mm', 1_000_000n * USDT],
      ['u2', 300n * USDT],
      ['u3', 1_000n * USDT],
    ]);
    let ts = T0 + 1000;
    must(e, { type: 'fundInsurance', ts: ++ts, asset: 'USDT', amount: 10_000n * USDT, from: '@faucet' });
    must(e, { type: 'perpMarkPrice', ts: ++ts, symbol: SYM, indexPrice: 400_000n });
    must(e, { type: 'perpSetLeverage', ts: ++ts, userId: 'u2', symbol: SYM, leverage: 50 });
    must(e, { type: 'perpSetMarginMode', ts: ++ts, userId: 'u3', symbol: SYM, marginMode: 'ISOLATED' });
    // u3 is short 0.075 BTC at 40,000 (isolated 20x, margin 150 USDT)
    must(e, order(++ts, 'mm', 'BUY', 400_000n, 75n));
    must(e, order(++ts, 'u3', 'SELL', 400_000n, 75n));
    expect(e.position('u3', SYM)?.size).toBe(75n);
    // u2 (cross 50x, 300 USDT) has an old sell of 0.075 BTC at 40,000 resting; nothing else is in the book
    must(e, order(++ts, 'u2', 'SELL', 400_000n, 75n));
    // the index gaps to 50,600 (+26.5%): u3 is liquidated, the fund buys back 0.075 BTC and fills u2's stale sell
    const r = must(e, { type: 'perpMarkPrice', ts: ++ts, symbol: SYM, indexPrice: 506_000n });
    expect(r.events.some((x) => x.type === 'liquidated' && x.userId === 'u3')).toBe(true);
    // u2 is now short 0.075 BTC at 40,000 with the mark at 50,600: 795 USDT under water on a 300 USDT wallet. The
    // liquidation step may not leave it so: no position with a margin balance below zero after the tick.
    const p = e.position('u2', SYM);
    const acc = e.perpAccount('u2');
    expect(p === undefined || acc.crossMarginBalance > 0n, `u2 left with margin balance ${acc.crossMarginBalance}`).toBe(true);
    for (const [asset, t] of e.assetTotals()) expect(t, asset).toBe(0n);
  });
});
