/**
 * The real BTC-PERP path (perp-ftx.ts; read in place, skipped when absent) through the engine with 44 leveraged
 * accounts (perp-replay.ts): the first 2 days here (about 11,500 mark ticks, a few seconds); the whole month with
 * `npx tsx packages/core/test/perp-replay-full.ts`. Every liquidation at or before bankruptcy unless the tick jumped
 * past it, the insurance fund's balance exactly explained by its entries, every asset conserved.
 */
import { describe, expect, it } from 'vitest';
import { ftxFile, loadFtxBars, milliUsd, toPriceUnits } from './perp-ftx';
import { replayPath } from './perp-replay';

const { console } = globalThis as unknown as { console: { log(...a: unknown[]): void } };
const file = ftxFile();

describe('FTX BTC-PERP loader', () => {
  it('parses decimal strings exactly and rounds to the tick half up', () => {
    expect(milliUsd('46821.75')).toBe(46_821_750n);
    expect(milliUsd('46319.0')).toBe(46_319_000n);
    expect(milliUsd('7')).toBe(7_000n);
    expect(() => milliUsd('1.2345')).toThrow();
    expect(() => milliUsd('1e3')).toThrow();
    expect(toPriceUnits(46_821_750n, 1)).toBe(468_218n);
    expect(toPriceUnits(46_821_749n, 1)).toBe(468_217n);
    expect(toPriceUnits(46_821_750n, 3)).toBe(46_821_750n);
  });
  it.skipIf(file === undefined)('reads the month: 45,031 one-minute bars from 2021-12-31 23:01 UTC, no gaps', () => {
    const bars = loadFtxBars(file!);
    expect(bars.length).toBe(45_031);
    expect(bars[0]).toEqual({ ts: Date.UTC(2021, 11, 31, 23, 1), open: 46_319_000n, high: 46_385_000n, low: 46_319_000n, close: 46_377_000n });
    let gaps = 0;
    for (let i = 1; i < bars.length; i++) if (bars[i]!.ts - bars[i - 1]!.ts !== 60_000) gaps++;
    expect(gaps).toBe(0);
  });
});

describe.skipIf(file === undefined)('FTX BTC-PERP replay (first 2 days)', () => {
  it('liquidations at or before bankruptcy, the insurance fund explained by its entries, assets conserved', () => {
    const bars = loadFtxBars(file!, 2 * 24 * 60);
    expect(bars.length).toBe(2880);
    const st = replayPath(bars);
    console.log(
      `FTX replay, 2 days: ${st.markTicks} ticks, ${st.opens} opens, ${st.liquidations} liquidations (${st.gapLiquidations} after gaps), ${st.adlTrades} ADL trades, fund ${st.insuranceSeed} -> ${st.insuranceFinal}`,
    );
    expect(st.failures).toEqual([]);
    expect(st.lateLiquidations).toBe(0);
    expect(st.liquidations).toBeGreaterThan(10); // the path does liquidate the high leverages
    expect(st.fundings).toBe(6);
    expect(st.insuranceFinal).toBe(st.insuranceExplained);
    expect(st.insuranceExplained - st.insuranceSeed).toBe(st.insuranceTrades);
  });
});
