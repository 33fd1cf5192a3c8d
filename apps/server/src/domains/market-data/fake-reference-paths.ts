/**
 * Test support only: a small deterministic ReferencePaths. Each coin's price moves linearly from `anchor` at its
 * own rate per day (so the 24 h changes and the rankings are known), with intraday history covering only the
 * 26 hours before `anchor` (enough for the 24 h window) and 30 days of daily and weekly bars, keeping tests fast.
 * Integer arithmetic in 10^-8 units.
 */
import type { PriceBar, ReferencePath, ReferencePaths } from './price-source';
import { fromUnits, toUnits } from '../../platform/shared/decimal';

const DAY = 86_400_000;
const MONDAY = 4 * DAY;

/** Coin -> [price level, change per day in ppm, base volume per minute]. */
export const FAKE_COINS: Record<string, [string, number, string]> = {
  BTC: ['90000', 20_000, '3'],
  ETH: ['3000', -10_000, '40'],
  LTC: ['100', 50_000, '300'],
  BNB: ['600', 0, '20'],
  SOL: ['150', 30_000, '500'],
  XRP: ['2', -30_000, '90000'],
  DOGE: ['0.2', 80_000, '400000'],
  ADA: ['0.5', 10_000, '10000'],
  SUI: ['3', -50_000, '1000'],
  TON: ['5', 60_000, '300'],
};

/** Builds the fake paths anchored at `anchor` (ms). */
export function fakeReferencePaths(anchor: number): ReferencePaths {
  const make = (base: string): ReferencePath => {
    const [level, ppm, volPerMin] = FAKE_COINS[base]!;
    const l8 = toUnits(level, 8);
    const p8 = (ts: number) => l8 + (l8 * BigInt(ppm) * BigInt(ts - anchor)) / (1_000_000n * BigInt(DAY));
    const v8 = toUnits(volPerMin, 8);
    return {
      base,
      quote: 'USDT',
      provenance: { demoData: base !== 'BTC' && base !== 'ETH' && base !== 'LTC', source: 'test fake' },
      priceAt: (ts) => fromUnits(p8(ts), 8),
      bars(periodMs, fromTs, toTs) {
        const out: PriceBar[] = [];
        const origin = periodMs === 7 * DAY ? MONDAY : 0;
        let t = Math.ceil((fromTs - origin) / periodMs) * periodMs + origin;
        // Intraday periods: 26 hours of history; days and weeks: 30 days.
        const earliest = anchor - (periodMs >= DAY ? 30 * DAY : 26 * 3_600_000);
        for (; t < toTs; t += periodMs) {
          if (t + periodMs <= earliest) continue;
          const o = p8(t);
          const c = p8(t + periodMs);
          const hi = (o > c ? o : c) + l8 / 1000n;
          const lo = (o < c ? o : c) - l8 / 1000n;
          out.push({
            time: t,
            open: fromUnits(o, 8),
            high: fromUnits(hi, 8),
            low: fromUnits(lo, 8),
            close: fromUnits(c, 8),
            volume: fromUnits((v8 * BigInt(periodMs)) / 60_000n, 8),
          });
        }
        return out;
      },
    };
  };
  const paths = new Map(Object.keys(FAKE_COINS).map((c) => [c, make(c)]));
  return { get: (b) => paths.get(b), all: () => [...paths.values()] };
}
