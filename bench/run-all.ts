/**
 * `npm run bench`: every benchmark in turn, each printing figures as ratios against a peer or a
 * limit measured in the same run. Not a test: nothing is asserted on speed.
 * Options (env): BENCH_ONLY=core,http,nats,replay,ws,perp,binance picks benchmarks; BENCH_DATA_DIR overrides
 * ../shared/data; BENCH_REPLAY_N sets the journal size (default 1,000,000).
 */
import os from 'node:os';
import { runCoreThroughput } from './src/core-throughput';
import { runHttpOrderEntry } from './src/http-order-entry';
import { runHttpOrderEntryNats } from './src/http-order-entry-nats';
import { runJournalReplay } from './src/journal-replay';
import { runWsFanout } from './src/ws-fanout';
import { runPerpBench } from './perp-bench';
import { runBinanceOrderEntry } from './binance-order-entry';

const only = new Set((process.env.BENCH_ONLY ?? 'core,http,nats,replay,ws,perp,binance').split(',').map((s) => s.trim()));
const replayN = Number.parseInt(process.env.BENCH_REPLAY_N ?? '1000000', 10);

async function main(): Promise<void> {
  console.log(
    `bench: node ${process.version}, ${os.cpus().length} cpu (${os.cpus()[0]?.model ?? '?'}), ` +
      `load average ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')} (figures are only comparable within one run)`,
  );
  const t0 = performance.now();
  if (only.has('core')) runCoreThroughput();
  if (only.has('http')) await runHttpOrderEntry();
  // Scale-out mode: skipped unless NATS_URL and DATABASE_URL are set.
  if (only.has('nats')) await runHttpOrderEntryNats();
  if (only.has('replay')) await runJournalReplay(replayN);
  if (only.has('ws')) await runWsFanout();
  if (only.has('perp')) runPerpBench();
  if (only.has('binance')) await runBinanceOrderEntry();
  console.log(`\nbench: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
