/**
 * The whole month of the real BTC-PERP path through perp-replay.ts (not a vitest test):
 * `npx tsx packages/core/test/perp-replay-full.ts [bars]`. Prints the figures; exits 1 when a property broke.
 */
const { process, console, performance } = globalThis as unknown as {
  process: { argv: string[]; exit(code: number): never };
  console: { log(...a: unknown[]): void };
  performance: { now(): number };
};
import { ftxFile, loadFtxBars } from './perp-ftx';
import { replayPath } from './perp-replay';

const file = ftxFile();
if (file === undefined) {
  console.log('FTX BTC-PERP data not found (../shared/data/ftx-btc-perp-1m-nautilus): skipped');
} else {
  const limit = process.argv[2] !== undefined ? Number.parseInt(process.argv[2], 10) : Infinity;
  const bars = loadFtxBars(file, limit);
  const t0 = performance.now();
  const st = replayPath(bars);
  const s = (performance.now() - t0) / 1000;
  const usdt = (v: bigint): string =>
    `${v / 100_000_000n}.${(v < 0n ? -v : v) % 100_000_000n}`.replace(/\.(\d+)$/, (_m, f: string) => `.${f.padStart(8, '0')}`);
  console.log(
    `${st.bars} bars, ${st.markTicks} mark ticks, ${st.commands} commands in ${s.toFixed(1)} s; ${st.fundings} fundings; ${st.opens} positions opened; ` +
      `${st.liquidations} liquidations (${st.gapLiquidations} after a gap past bankruptcy, ${st.lateLiquidations} late); ${st.adlTrades} ADL trades; ` +
      `insurance fund ${usdt(st.insuranceSeed)} -> ${usdt(st.insuranceFinal)} USDT (explained by its entries: ${usdt(st.insuranceExplained)})`,
  );
  for (const f of st.failures) console.log(`FAIL ${f}`);
  if (st.failures.length > 0 || st.insuranceFinal !== st.insuranceExplained) process.exit(1);
}
