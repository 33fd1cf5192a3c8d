/**
 * `npm run crash-loop [-- options]`: the real-process crash loop (no acknowledged change may be lost or
 * invented under any fault). Starts the server as `npm start` does (one node process, temporary DATA_DIR, free
 * port, PGlite, captcha test mode), registers users over HTTP, drives concurrent order load, kills the server with
 * SIGKILL at a seeded random instant, restarts it on the same data and checks every acknowledged command, every
 * order, every fill and every balance through the public API (apps/server/test/crash-harness.ts says exactly what).
 * Exits 1 on any violation or error, printing the seed that replays the run's decisions.
 *
 *   --seed N              replay a run (default: random, printed)
 *   --cycles N            kill/restart cycles (default 20)
 *   --users N             test users (default 4)
 *   --workers N           concurrent request loops (default 6)
 *   --symbols A/B,C/D     markets traded (default BTC/USDT,ETH/USDT)
 *   --market-makers M     first (default): liquidity bots only on the first start, to sell the users some base;
 *                         on: bots in every start (they trade against the users during load and checks);
 *                         off: no bots ever (the users hold only USDT: buy orders and cancels only)
 *   --kill-ms LO-HI       kill this long after the load starts (default 300-4000)
 *   --kill-during-start P probability of also killing a restart during recovery (default 0.2)
 *   --order-rate N        the server's ORDER_RATE_PER_10S (default 0 = unlimited; the server's own default is 50,
 *                         which answers most of this load with order_rate_limited)
 *   --start-timeout-s N   longest wait for a start's /readyz (default 180); on a machine shared with other loads a
 *                         start can take longer than the default without being stuck (its phase shows in the output)
 *   --keep                keep the data directory (it is always kept after a violation)
 */
import { randomInt } from 'node:crypto';
import { DEFAULT_OPTIONS, runCrashLoop, summaryLines, type CrashLoopOptions, type MarketMakersMode } from '../apps/server/test/crash-harness';

function parseArgs(argv: string[]): CrashLoopOptions {
  const o: CrashLoopOptions = { ...DEFAULT_OPTIONS, seed: randomInt(0, 2 ** 31), log: (line) => console.log(line) };
  const int = (flag: string, v: string | undefined): number => {
    if (v === undefined || !/^[0-9]+$/.test(v)) throw new Error(`${flag} needs a whole number`);
    return Number.parseInt(v, 10);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const v = argv[i + 1];
    switch (flag) {
      case '--seed':
        o.seed = int(flag, v);
        i++;
        break;
      case '--cycles':
        o.cycles = int(flag, v);
        i++;
        break;
      case '--users':
        o.users = int(flag, v);
        i++;
        break;
      case '--workers':
        o.workers = int(flag, v);
        i++;
        break;
      case '--symbols':
        if (!v) throw new Error('--symbols needs a list like BTC/USDT,ETH/USDT');
        o.symbols = v.split(',');
        i++;
        break;
      case '--market-makers':
        if (v !== 'on' && v !== 'off' && v !== 'first') throw new Error('--market-makers is on, off or first');
        o.marketMakers = v as MarketMakersMode;
        i++;
        break;
      case '--kill-ms': {
        const m = /^([0-9]+)-([0-9]+)$/.exec(v ?? '');
        if (!m || Number(m[1]) > Number(m[2])) throw new Error('--kill-ms needs LO-HI in ms');
        o.killAfterMs = [Number(m[1]), Number(m[2])];
        i++;
        break;
      }
      case '--kill-during-start': {
        const p = Number(v);
        if (!(p >= 0 && p <= 1)) throw new Error('--kill-during-start needs a probability in [0, 1]');
        o.killDuringStart = p;
        i++;
        break;
      }
      case '--order-rate':
        o.orderRatePer10s = int(flag, v);
        i++;
        break;
      case '--start-timeout-s':
        o.startTimeoutMs = int(flag, v) * 1000;
        i++;
        break;
      case '--keep':
        o.keepDataDir = true;
        break;
      default:
        throw new Error(`unknown option ${flag} (see the comment at the top of scripts/crash-loop.ts)`);
    }
  }
  if (o.users < 1 || o.workers < 1 || o.cycles < 1) throw new Error('--users, --workers and --cycles must be at least 1');
  return o;
}

const options = parseArgs(process.argv.slice(2));
const report = await runCrashLoop(options);
console.log('');
for (const line of summaryLines(report)) console.log(line);
if (report.violations.length > 0) {
  console.log('\nVIOLATIONS:');
  for (const v of report.violations.slice(0, 50)) console.log(`  ${v}`);
  if (report.violations.length > 50) console.log(`  ... and ${report.violations.length - 50} more`);
}
if (report.error) console.log(`\nERROR: ${report.error}`);
if (report.violations.length > 0 || report.error) {
  const args = process.argv.slice(2).filter((a, i, all) => a !== '--seed' && all[i - 1] !== '--seed');
  console.log(`\nFAILED. Replay with: npm run crash-loop -- --seed ${report.seed}${args.length ? ` ${args.join(' ')}` : ''} (data kept in ${report.dataDir})`);
  process.exit(1);
}
console.log(`\nOK (seed ${report.seed})`);
