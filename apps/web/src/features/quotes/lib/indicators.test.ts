// Indicators of the full-screen chart: hand-worked examples (each value derived in the comment), then a property
// test against an independent floating-point model of the same textbook definitions (the model is the test's only:
// the app computes on decimal strings).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Kline } from '@exchange/api';
import { bollinger, ema, isqrt, macd, rsi } from './indicators';

const bars = (closes: readonly (string | number)[]): Kline[] =>
  closes.map((c, i) => ({ time: i * 60_000, open: String(c), high: String(c), low: String(c), close: String(c), volume: '1', amount: '1' }) as Kline);

describe('indicators, worked examples', () => {
  it('EMA(3) of 1..5: seeded with the average of 1, 2, 3 = 2, then alpha 1/2: 3, 4', () => {
    expect(ema(bars([1, 2, 3, 4, 5]), 3, 2)).toEqual([
      { time: 120_000, value: '2.00' },
      { time: 180_000, value: '3.00' },
      { time: 240_000, value: '4.00' },
    ]);
    expect(ema(bars([1, 2]), 3, 2)).toEqual([]);
  });

  it('BOLL(3, 2) of 1, 2, 3: middle 2, sigma = sqrt(2/3) = 0.81650, bands 2 +- 1.63299', () => {
    expect(bollinger(bars([1, 2, 3]), 3, 2, 4)).toEqual([{ time: 120_000, middle: '2.0000', upper: '3.6330', lower: '0.3670' }]);
    // A flat market: the bands close on the middle.
    expect(bollinger(bars(['7.5', '7.5', '7.5', '7.5']), 3, 2, 2).map((p) => [p.lower, p.middle, p.upper])).toEqual([
      ['7.50', '7.50', '7.50'],
      ['7.50', '7.50', '7.50'],
    ]);
  });

  it('MACD(2, 3, 2) of 1..6: EMA2 - EMA3 = 0.5 from bar 2, DEA 0.5, histogram 0', () => {
    // EMA2: 1.5, 2.5, 3.5, 4.5, 5.5 (bars 1-5); EMA3: 2, 3, 4, 5 (bars 2-5); DIF 0.5 each; DEA seeded at bar 3.
    expect(macd(bars([1, 2, 3, 4, 5, 6]), 2, 3, 2, 2)).toEqual([
      { time: 180_000, dif: '0.50', dea: '0.50', hist: '0.00' },
      { time: 240_000, dif: '0.50', dea: '0.50', hist: '0.00' },
      { time: 300_000, dif: '0.50', dea: '0.50', hist: '0.00' },
    ]);
  });

  it('RSI(2) of 1, 2, 1, 2: first averages 0.5/0.5 = 50, then gain 0.75, loss 0.25 = 75; flat 50; rising 100', () => {
    expect(rsi(bars([1, 2, 1, 2]), 2)).toEqual([
      { time: 120_000, value: '50.00' },
      { time: 180_000, value: '75.00' },
    ]);
    expect(rsi(bars([3, 3, 3, 3]), 2).map((p) => p.value)).toEqual(['50.00', '50.00']);
    expect(rsi(bars([1, 2, 3, 4]), 2).map((p) => p.value)).toEqual(['100.00', '100.00']);
    expect(rsi(bars([4, 3, 2, 1]), 2).map((p) => p.value)).toEqual(['0.00', '0.00']);
  });

  it('isqrt is the floor of the root', () => {
    for (const [n, r] of [
      [0n, 0n],
      [1n, 1n],
      [2n, 1n],
      [3n, 1n],
      [4n, 2n],
      [8n, 2n],
      [9n, 3n],
      [99n, 9n],
      [10n ** 40n, 10n ** 20n],
      [10n ** 40n - 1n, 10n ** 20n - 1n],
      [10n ** 400n, 10n ** 200n],
    ] as const)
      expect(isqrt(n)).toBe(r);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 60n }), (n) => {
        const r = isqrt(n);
        return r * r <= n && (r + 1n) * (r + 1n) > n;
      }),
    );
    expect(() => isqrt(-1n)).toThrow(RangeError);
  });
});

// The floating-point model: the same definitions, written independently.
function emaModel(xs: number[], n: number): number[] {
  if (xs.length < n) return [];
  let prev = xs.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const outp = [prev];
  for (let i = n; i < xs.length; i++) {
    prev = (2 / (n + 1)) * xs[i]! + (1 - 2 / (n + 1)) * prev;
    outp.push(prev);
  }
  return outp;
}
function rsiModel(xs: number[], n: number): number[] {
  if (xs.length <= n) return [];
  const ch = xs.slice(1).map((x, i) => x - xs[i]!);
  let g = ch.slice(0, n).reduce((a, d) => a + Math.max(d, 0), 0) / n;
  let l = ch.slice(0, n).reduce((a, d) => a + Math.max(-d, 0), 0) / n;
  const v = () => (l === 0 ? (g === 0 ? 50 : 100) : 100 - 100 / (1 + g / l));
  const outp = [v()];
  for (let i = n; i < ch.length; i++) {
    g = (g * (n - 1) + Math.max(ch[i]!, 0)) / n;
    l = (l * (n - 1) + Math.max(-ch[i]!, 0)) / n;
    outp.push(v());
  }
  return outp;
}

describe('indicators against a floating-point model', () => {
  const closesArb = fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 0, maxLength: 80 }).map((xs) => xs.map((x) => x / 100));
  const near = (a: string, b: number, tol: number) => Math.abs(Number(a) - b) <= tol * Math.max(1, Math.abs(b));

  it('EMA, BOLL, MACD and RSI agree to 1e-6 on random closes (2 decimals)', () => {
    fc.assert(
      fc.property(closesArb, fc.integer({ min: 1, max: 30 }), (xs, n) => {
        const b = bars(xs.map((x) => x.toFixed(2)));
        const e = ema(b, n, 8);
        const em = emaModel(xs, n);
        expect(e.length).toBe(em.length);
        e.forEach((p, i) => expect(near(p.value, em[i]!, 1e-6), `EMA ${p.value} vs ${em[i]}`).toBe(true));

        const bb = bollinger(b, n, 2, 8);
        expect(bb.length).toBe(Math.max(0, xs.length - n + 1));
        bb.forEach((p, i) => {
          const w = xs.slice(i, i + n);
          const mean = w.reduce((a, c) => a + c, 0) / n;
          const sd = Math.sqrt(w.reduce((a, c) => a + (c - mean) ** 2, 0) / n);
          expect(near(p.middle, mean, 1e-6) && near(p.upper, mean + 2 * sd, 1e-6) && near(p.lower, mean - 2 * sd, 1e-6), JSON.stringify([p, mean, sd])).toBe(
            true,
          );
        });

        const m = macd(b, 12, 26, 9, 8);
        const f = emaModel(xs, 12).slice(26 - 12);
        const s = emaModel(xs, 26);
        const dif = s.map((v, i) => f[i]! - v);
        const dea = emaModel(dif, 9);
        expect(m.length).toBe(dea.length);
        m.forEach((p, i) => {
          const d = dif[i + 8]!;
          expect(near(p.dif, d, 1e-6) && near(p.dea, dea[i]!, 1e-6) && near(p.hist, d - dea[i]!, 1e-6), JSON.stringify([p, d, dea[i]])).toBe(true);
        });

        const r = rsi(b, n);
        const rm = rsiModel(xs, n);
        expect(r.length).toBe(rm.length);
        r.forEach((p, i) => expect(Math.abs(Number(p.value) - rm[i]!) <= 0.0051, `RSI ${p.value} vs ${rm[i]}`).toBe(true));
      }),
      { numRuns: 200 },
    );
  });
});
