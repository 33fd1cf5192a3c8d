/**
 * `npm run bench`: every benchmark in turn, each printing figures as ratios against a peer or a
 * limit measured in the same run. Not a test: nothing is asserted on speed.
 * Optional: BENCH_ONLY=core,http,replay picks benchmarks; BENCH_DATA_DIR overrides ../shared/data.
 */
import os from 'node:os';
import { runCoreThroughput } from './src/core-throughput';

const only = new Set((process.env.BENCH_ONLY ?? 'core,http,replay').split(',').map((s) => s.trim()));
console.log(`bench: node ${process.version}, ${os.cpus().length} cpu (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const t0 = performance.now();
if (only.has('core')) runCoreThroughput();
console.log(`\nbench: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
