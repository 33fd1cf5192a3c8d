// Proves the market-order price impact estimate on hand-computed books (a buy by amount and by
// total, a sell, a book too thin, the 1% threshold exactly and just above) and, with fast-check, against a simple
// independent model that expands the book into single quantity steps and takes them one at a time with bigint
// ticks and lots: filled quantity and quote, average price, percent, the warning and completeness must agree.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDecimal } from '@exchange/money';
import { estimatePriceImpact, type BookLevel } from './price-impact';

const asks: BookLevel[] = [
  ['100.00', '1.0'],
  ['101.00', '2.0'],
  ['105.00', '5.0'],
];
const bids: BookLevel[] = [
  ['99.00', '1.0'],
  ['98.00', '1.0'],
  ['90.00', '10.0'],
];

describe('estimatePriceImpact', () => {
  it('walks the asks for a buy by amount: average, percent from the best ask, no warning within 1%', () => {
    const r = estimatePriceImpact(asks, { side: 'BUY', amount: '2', stepSize: '0.1' }, 2)!;
    // 1 @ 100 + 1 @ 101 = 201 for 2: average 100.50, 0.5% above 100.
    expect(r).toMatchObject({
      bestPrice: '100.00',
      filledQty: '2.0',
      filledQuote: '201.000',
      avgPrice: '100.50',
      impactPct: '0.50',
      exceeds: false,
      complete: true,
      worstPrice: '101.00',
    });
  });

  it('warns when the average is more than 1% away', () => {
    // 1 @ 100 + 2 @ 101 + 1 @ 105 = 407 for 4: average 101.75, 1.75%.
    const r = estimatePriceImpact(asks, { side: 'BUY', amount: '4', stepSize: '0.1' }, 2)!;
    expect(r).toMatchObject({ avgPrice: '101.75', impactPct: '1.75', exceeds: true, complete: true, worstPrice: '105.00' });
  });

  it('compares with the threshold exactly: 1.00% does not warn, just above does (percent rounded up)', () => {
    const book: BookLevel[] = [
      ['100', '1'],
      ['102', '1'],
    ];
    // 1 @ 100 + 1 @ 102: average 101, exactly 1%.
    expect(estimatePriceImpact(book, { side: 'BUY', amount: '2', stepSize: '1' }, 2)).toMatchObject({ impactPct: '1.00', exceeds: false });
    const above: BookLevel[] = [
      ['100.00', '1'],
      ['102.01', '1'],
    ];
    // average 101.005: 1.005% -> shown 1.01%, warns.
    expect(estimatePriceImpact(above, { side: 'BUY', amount: '2', stepSize: '1' }, 2)).toMatchObject({ avgPrice: '101.01', impactPct: '1.01', exceeds: true });
    expect(estimatePriceImpact(above, { side: 'BUY', amount: '2', stepSize: '1' }, 2, '1.01')!.exceeds).toBe(false);
  });

  it('walks the bids for a sell (average below the best bid)', () => {
    // 1 @ 99 + 1 @ 98 + 1 @ 90 = 287 for 3: average 95.666.. -> 95.67, (99 - 95.666..)/99 = 3.367..% -> 3.37%.
    const r = estimatePriceImpact(bids, { side: 'SELL', amount: '3', stepSize: '0.1' }, 2)!;
    expect(r).toMatchObject({ bestPrice: '99.00', filledQty: '3.0', avgPrice: '95.67', impactPct: '3.37', exceeds: true, complete: true });
  });

  it('sizes a buy by total in whole steps and reports a budget spent as complete', () => {
    // 250 USDT: 1 @ 100 (100), 1.4 @ 101 (141.4; 1.5 would cost 151.5 > 150), 8.6 left over, less than a step at 101.
    const r = estimatePriceImpact(asks, { side: 'BUY', total: '250', stepSize: '0.1' }, 2)!;
    expect(r).toMatchObject({ filledQty: '2.4', filledQuote: '241.400', complete: true, exceeds: false });
    expect(r.avgPrice).toBe('100.58'); // 241.4 / 2.4 = 100.5833..
  });

  it('counts a remainder below one step at the last price as spent when a total buys the whole book', () => {
    const book: BookLevel[] = [
      ['100.00', '1.0'],
      ['101.00', '2.0'],
    ];
    // The book costs 302; 10.09 left is less than one 0.1 step at 101 (10.10), 10.10 left is not.
    expect(estimatePriceImpact(book, { side: 'BUY', total: '312.09', stepSize: '0.1' }, 2)).toMatchObject({ filledQty: '3.0', complete: true });
    expect(estimatePriceImpact(book, { side: 'BUY', total: '312.10', stepSize: '0.1' }, 2)).toMatchObject({ filledQty: '3.0', complete: false });
  });

  it('says when the visible book cannot fill the order', () => {
    expect(estimatePriceImpact(asks, { side: 'BUY', amount: '9', stepSize: '0.1' }, 2)).toMatchObject({ filledQty: '8.0', complete: false });
    expect(estimatePriceImpact(asks, { side: 'BUY', total: '100000', stepSize: '0.1' }, 2)).toMatchObject({ filledQty: '8.0', complete: false, exceeds: true });
  });

  it('has nothing to estimate for an empty book or an empty order', () => {
    expect(estimatePriceImpact([], { side: 'BUY', amount: '1', stepSize: '1' }, 2)).toBeNull();
    expect(estimatePriceImpact(asks, { side: 'BUY', amount: '0', stepSize: '1' }, 2)).toBeNull();
    expect(estimatePriceImpact(asks, { side: 'BUY', total: '', amount: '', stepSize: '1' }, 2)).toBeNull();
    // A budget below one step at the best price fills nothing.
    expect(estimatePriceImpact(asks, { side: 'BUY', total: '5', stepSize: '0.1' }, 2)).toMatchObject({
      filledQty: '0.0',
      avgPrice: '',
      exceeds: false,
      complete: true,
    });
  });
});

/** `units` / 10^scale as a plain decimal string: the money module's formatter (the model's arithmetic is its own). */
const dec: (units: bigint, scale: number) => string = formatDecimal;

describe('estimatePriceImpact against a step-by-step model', () => {
  const arb = fc.record({
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    priceDecimals: fc.integer({ min: 0, max: 4 }),
    qtyDecimals: fc.integer({ min: 0, max: 6 }),
    stepLots: fc.integer({ min: 1, max: 5 }),
    firstTick: fc.integer({ min: 1_000, max: 1_000_000 }),
    levels: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 20_000 }), steps: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 8 }),
    byTotal: fc.boolean(),
    size: fc.integer({ min: 1, max: 400 }),
    // Some budgets buy the whole book and keep a remainder of up to two steps at the last price.
    wholeBook: fc.boolean(),
    extra: fc.bigInt({ min: 0n, max: 2_000_000n }),
  });

  it('agrees with taking the book one step at a time', () => {
    fc.assert(
      fc.property(arb, (c) => {
        const buy = c.side === 'BUY';
        // Prices in ticks (10^-priceDecimals), best first: asks going up, bids going down (kept positive).
        let tick = BigInt(c.firstTick) + (buy ? 0n : 200_000n);
        const model: { tick: bigint; lots: bigint }[] = [];
        for (const l of c.levels) {
          model.push({ tick, lots: BigInt(l.steps * c.stepLots) });
          tick = buy ? tick + BigInt(l.gap) : tick - BigInt(Math.min(l.gap, 1_000));
        }
        const step = BigInt(c.stepLots);
        const byTotal = buy && c.byTotal;
        const book: BookLevel[] = model.map((m) => [dec(m.tick, c.priceDecimals), dec(m.lots, c.qtyDecimals)]);
        // By total the budget is in quote units of 10^-(priceDecimals + qtyDecimals): ticks x lots.
        const bookCost = model.reduce((sum, m) => sum + m.tick * m.lots, 0n);
        const lastStepCost = model[model.length - 1]!.tick * step;
        const budget = c.wholeBook ? bookCost + (c.extra % (2n * lastStepCost)) : (BigInt(c.size) * model[0]!.tick * step) / 3n + 1n;
        const sizeStr = byTotal ? dec(budget, c.priceDecimals + c.qtyDecimals) : dec(BigInt(c.size) * step, c.qtyDecimals);
        const r = estimatePriceImpact(
          book,
          { side: c.side, ...(byTotal ? { total: sizeStr } : { amount: sizeStr }), stepSize: dec(step, c.qtyDecimals) },
          c.priceDecimals,
        );

        // The model: one step (stepLots lots at one price) at a time.
        const steps = model.flatMap((m) => Array.from({ length: Number(m.lots / step) }, () => m.tick));
        let lots = 0n;
        let quote = 0n;
        let left = byTotal ? budget : BigInt(c.size) * step;
        let complete = false;
        let last = 0n;
        for (const p of steps) {
          const cost = byTotal ? p * step : step;
          if (left < cost) {
            complete = true;
            break;
          }
          left -= cost;
          lots += step;
          quote += p * step;
          last = p;
          if (left === 0n) {
            complete = true;
            break;
          }
        }
        if (!complete && byTotal && lots > 0n && left < last * step) complete = true;
        if (!complete && !byTotal && left === 0n) complete = true;

        expect(r).not.toBeNull();
        expect(r!.complete).toBe(complete);
        expect(r!.filledQty).toBe(dec(lots, c.qtyDecimals));
        if (lots === 0n) {
          expect(r!.exceeds).toBe(false);
          return;
        }
        expect(r!.filledQuote).toBe(dec(quote, c.priceDecimals + c.qtyDecimals));
        const best = model[0]!.tick;
        const diff = quote > best * lots ? quote - best * lots : best * lots - quote;
        expect(r!.exceeds).toBe(diff * 100n > best * lots);
        // Percent with 2 decimals, rounded up; average in ticks, rounded half up.
        const pct100 = (diff * 10_000n + best * lots - 1n) / (best * lots);
        expect(r!.impactPct).toBe(dec(pct100, 2));
        expect(r!.avgPrice).toBe(dec((2n * quote + lots) / (2n * lots), c.priceDecimals));
      }),
      { numRuns: 400 },
    );
  });
});
