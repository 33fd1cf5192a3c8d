/**
 * Runs the engine host's fault simulator (apps/server/src/tools/fault-sim.ts) over any number of seeds and
 * prints the totals and every failing seed, to replay with `--seed N`.
 *
 *   npm run fault-sim -- --seeds 20000 [--from 1]
 *   npm run fault-sim -- --seed 1234          (one seed, with its full report)
 */
import { runSeed, runSeeds } from '../apps/server/src/tools/fault-sim';
import { PROJECTIONS } from '../apps/server/src/main/domains';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const one = arg('seed');
  if (one !== undefined) {
    const rep = await runSeed(Number.parseInt(one, 10), PROJECTIONS);
    console.log(JSON.stringify(rep, null, 2));
    process.exit(rep.violations.length === 0 ? 0 : 1);
  }
  const count = Number.parseInt(arg('seeds') ?? '2000', 10);
  const from = Number.parseInt(arg('from') ?? '1', 10);
  const started = Date.now();
  const { failed, totals } = await runSeeds(from, count, PROJECTIONS);
  console.log(`fault simulator: seeds ${from}..${from + count - 1} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(totals);
  for (const f of failed) console.log(`FAILED seed ${f.seed} (${f.fault}): ${f.violations[0]}  -> replay: npm run fault-sim -- --seed ${f.seed}`);
  process.exit(failed.length === 0 ? 0 : 1);
}

void main();
