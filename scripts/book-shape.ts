/**
 * `npm run book-shape [-- --seconds N --warmup N --symbol BTC/USDT]`: starts the app's market in-process (a fresh
 * PGlite data dir, the engine host with its journal, the market-data service and the liquidity bots of every
 * market, as `npm start` in demo mode), lets it run, and prints in one table:
 * - the book of one market, sampled once a second after the warm-up (medians): spread in ticks, USDT and bps of
 *   the mid, depth (quote value) within 0.1% and 1% of the mid per side, levels within those distances, all levels;
 *   next to the same figures of the real Binance capture (depth-profile.ts, from `npm run depth-profile`);
 * - the bots' command rate (journaled commands per second, by kind) and how responsive the server stays while they
 *   run: latency of GET getDepth and getKline through the app (app.inject, same event loop as the bots), the
 *   event-loop delay and the process CPU share;
 * - the live 1-minute volume of the market's complete minutes against the reference path's (= the seeded k-line
 *   history's) 1-minute volume of the same minutes.
 * Nothing is asserted: it is a measurement. Default: 120 s run, 40 s warm-up.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { KLINE_PERIOD_MS } from '@exchange/api';
import { formatDecimal, parseDecimal, pow10 } from '@exchange/core';
import { makeTestApp } from '../apps/server/test/helpers';
import { startJobs, createReferencePaths, pathOfMarket } from '../apps/server/src/domains/market-jobs';
import { BINANCE_BTCUSDT, BINANCE_ETHUSDT } from '../apps/server/src/domains/market-jobs/depth-profile';

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
}

const seconds = Number.parseInt(arg('seconds', '120'), 10);
const warmup = Number.parseInt(arg('warmup', '40'), 10);
const symbol = arg('symbol', 'BTC/USDT');
const printLevels = Number.parseInt(arg('print-levels', '0'), 10);

/** Median of numbers or bigints (lower middle). */
function median<T extends number | bigint>(xs: T[]): T | undefined {
  const s = [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return s[(s.length - 1) >> 1];
}
function pct<T extends number>(xs: T[], p: number): T | undefined {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p * s.length) / 100))];
}
/** Whole quote units of a 10^-8 amount, with thousands separators. */
function whole(x: bigint): string {
  return (x / pow10(8)).toLocaleString('en-US');
}

interface BookSample {
  spreadTicks: bigint;
  spreadE4Bps: bigint; // 10^-4 bps of the mid
  depth10: [bigint, bigint]; // quote units (10^-8) within 0.1% of the mid, bids/asks
  depth100: [bigint, bigint];
  levels10: [number, number];
  levels100: [number, number];
  levels: [number, number];
  bestQty: [bigint, bigint];
}

async function main(): Promise<void> {
  const t = await makeTestApp();
  const { ctx, app } = t;
  const engine = ctx.host.engine;
  const market = engine.market(symbol);
  if (!market) throw new Error(`no market ${symbol}`);
  const quoteScale = engine.asset(market.quote)?.scale ?? 8;
  const mult = pow10(quoteScale - market.priceDecimals - market.qtyDecimals);

  const commands = new Map<string, number>();
  const placesBySymbol = new Map<string, number>();
  let counting = false;
  const off = ctx.host.onEvents((_events, cmd) => {
    if (!counting) return;
    const who = 'userId' in cmd && typeof cmd.userId === 'string' && cmd.userId.startsWith('mm-') ? (cmd.userId.endsWith('-taker') ? 'taker ' : 'maker ') : '';
    const k = `${who}${cmd.type}`;
    commands.set(k, (commands.get(k) ?? 0) + 1);
    if (cmd.type === 'placeOrder') placesBySymbol.set(cmd.symbol, (placesBySymbol.get(cmd.symbol) ?? 0) + 1);
  });

  const paths = createReferencePaths();
  const started = Date.now();
  const jobs = await startJobs({ ...ctx, config: { ...ctx.config, marketMakers: true } }, { paths });
  console.log(`running ${seconds} s (${warmup} s warm-up) on ${symbol}...`);
  await new Promise((r) => setTimeout(r, warmup * 1000));

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const seq0 = ctx.host.stats.lastSeq;
  const journalBytes = () => {
    const dir = nodePath.join(t.dataDir, 'journal');
    return fs.existsSync(dir) ? fs.readdirSync(dir).reduce((a, f) => a + fs.statSync(nodePath.join(dir, f)).size, 0) : 0;
  };
  const bytes0 = journalBytes();
  const t0 = Date.now();
  counting = true;
  const samples: BookSample[] = [];
  const latDepth: number[] = [];
  const latKline: number[] = [];
  const enc = encodeURIComponent(symbol);
  while (Date.now() - t0 < (seconds - warmup) * 1000) {
    const d = engine.depth(symbol, 100_000);
    const bb = d.bids[0]?.price;
    const ba = d.asks[0]?.price;
    if (bb !== undefined && ba !== undefined && bb < ba) {
      const mid2 = bb + ba;
      const side = (levels: typeof d.bids, ppm: bigint) => {
        let depth = 0n;
        let n = 0;
        for (const l of levels) {
          const dist2 = (2n * l.price > mid2 ? 2n * l.price - mid2 : mid2 - 2n * l.price) * 1_000_000n;
          if (dist2 > ppm * mid2) break;
          depth += l.price * l.quantity * mult;
          n++;
        }
        return { depth, n };
      };
      const b10 = side(d.bids, 1000n);
      const a10 = side(d.asks, 1000n);
      const b100 = side(d.bids, 10_000n);
      const a100 = side(d.asks, 10_000n);
      samples.push({
        spreadTicks: (ba - bb) / market.tickSize,
        spreadE4Bps: ((ba - bb) * 2n * 100_000_000n) / mid2,
        depth10: [b10.depth, a10.depth],
        depth100: [b100.depth, a100.depth],
        levels10: [b10.n, a10.n],
        levels100: [b100.n, a100.n],
        levels: [d.bids.length, d.asks.length],
        bestQty: [d.bids[0]?.quantity ?? 0n, d.asks[0]?.quantity ?? 0n],
      });
    }
    let s = performance.now();
    await app.inject(`/api/data/data/getDepth?pairsName=${enc}&limit=50`);
    latDepth.push(performance.now() - s);
    s = performance.now();
    await app.inject(`/api/data/data/getKline?pairsName=${enc}&type=SPOT&period=1min&limit=300`);
    latKline.push(performance.now() - s);
    await new Promise((r) => setTimeout(r, 1000));
  }
  counting = false;
  const lastBook = engine.depth(symbol, printLevels);
  const wallMs = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cmdCount = ctx.host.stats.lastSeq - seq0;
  const bytes = journalBytes() - bytes0;
  loop.disable();

  // Live 1-minute volume of the complete minutes since the bots started, against the reference's.
  const klines = await ctx.marketData.klines(symbol, 'SPOT', '1min', 30);
  const minuteMs = KLINE_PERIOD_MS['1min'];
  const firstFull = started - (started % minuteMs) + minuteMs;
  const lastFull = Date.now() - (Date.now() % minuteMs); // the current minute is still open
  const path = pathOfMarket(paths, market.base, market.quote);
  const qd = market.qtyDecimals;
  const minutes: string[] = [];
  for (const k of klines) {
    if (k.time < firstFull || k.time >= lastFull) continue;
    const ref = path?.bars(minuteMs, k.time, k.time + minuteMs)[0]?.volume ?? '?';
    minutes.push(`${new Date(k.time).toISOString().slice(11, 16)} live ${k.volume} / reference ${ref}`);
  }
  const hist = path?.bars(minuteMs, started - 86_400_000, started) ?? [];
  const histMedian = median(hist.map((b) => parseDecimal(b.volume, 8)));

  await jobs.stop();
  off();
  await t.close();

  const real = market.base === 'BTC' && market.quote === 'USDT' ? BINANCE_BTCUSDT : market.base === 'ETH' && market.quote === 'USDT' ? BINANCE_ETHUSDT : null;
  const m = <T extends number | bigint>(f: (s: BookSample) => T) => median(samples.map(f));
  const tick = formatDecimal(market.tickSize, market.priceDecimals);
  const spreadTicks = m((s) => s.spreadTicks) ?? 0n;
  const spreadE4Bps = m((s) => s.spreadE4Bps) ?? 0n;
  const row = (label: string, ours: string, theirs: string) => console.log(`  ${label.padEnd(34)}${ours.padStart(28)}${theirs.padStart(36)}`);
  console.log(`\n${symbol} book, median of ${samples.length} samples (1/s)`);
  row('', 'ours', real ? `Binance ${real.symbol} 2024-08-08` : '(no capture)');
  row('spread, ticks', spreadTicks.toString(), real ? `${real.spreadTicks} (1 tick ${real.spreadOneTickPct}%)` : '');
  row('spread, quote', formatDecimal(spreadTicks * market.tickSize, market.priceDecimals), real ? formatDecimal(real.spreadTicks, 2) : '');
  row('spread, bps of mid', formatDecimal(spreadE4Bps, 4), real ? formatDecimal((real.spreadTicks * 1_000_000n) / real.midUsdt, 4) : '');
  row(
    `depth within 0.1%, bids / asks (${market.quote})`,
    `${whole(m((s) => s.depth10[0]) ?? 0n)} / ${whole(m((s) => s.depth10[1]) ?? 0n)}`,
    real ? `${real.depth10Bps[0].toLocaleString('en-US')} / ${real.depth10Bps[1].toLocaleString('en-US')}` : '',
  );
  row(
    `depth within 1%, bids / asks (${market.quote})`,
    `${whole(m((s) => s.depth100[0]) ?? 0n)} / ${whole(m((s) => s.depth100[1]) ?? 0n)}`,
    real ? `${real.depth100Bps[0].toLocaleString('en-US')} / ${real.depth100Bps[1].toLocaleString('en-US')}` : '',
  );
  row(
    'levels within 0.1%, bids / asks',
    `${m((s) => s.levels10[0])} / ${m((s) => s.levels10[1])}`,
    real ? `${real.levelsWithin10Bps[0]} / ${real.levelsWithin10Bps[1]}` : '',
  );
  row(
    'levels within 1%, bids / asks',
    `${m((s) => s.levels100[0])} / ${m((s) => s.levels100[1])}`,
    real ? `${real.levelsWithin100Bps[0]} / ${real.levelsWithin100Bps[1]}` : '',
  );
  row('all levels, bids / asks', `${m((s) => s.levels[0])} / ${m((s) => s.levels[1])}`, '');
  row(
    `best level, bids / asks (${market.base})`,
    `${formatDecimal(m((s) => s.bestQty[0]) ?? 0n, qd)} / ${formatDecimal(m((s) => s.bestQty[1]) ?? 0n, qd)}`,
    real ? `${real.points[0]?.[1].toLocaleString('en-US')} USDT a side` : '',
  );
  row('tick', tick, real ? '0.01' : '');
  if (real) console.log(`  (Binance caveat: ${real.caveat})`);
  if (printLevels > 0) {
    console.log(`\nthe book at the end (best ${printLevels} a side): bid qty @ price | ask price @ qty`);
    for (let i = 0; i < printLevels; i++) {
      const b = lastBook.bids[i];
      const a = lastBook.asks[i];
      const bs = b ? `${formatDecimal(b.quantity, qd)} @ ${formatDecimal(b.price, market.priceDecimals)}` : '';
      const as = a ? `${formatDecimal(a.price, market.priceDecimals)} @ ${formatDecimal(a.quantity, qd)}` : '';
      console.log(`  ${bs.padStart(26)} | ${as}`);
    }
  }

  const sec = wallMs / 1000;
  console.log(
    `\ncommands while measuring (${sec.toFixed(0)} s, all ${engine.markets().length} markets): ${cmdCount} journaled = ${(cmdCount / sec).toFixed(1)}/s`,
  );
  for (const [k, v] of [...commands.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(24)} ${(v / sec).toFixed(2)}/s`);
  console.log(
    `  journal: ${(bytes / sec / 1024).toFixed(1)} KiB/s (${(((bytes / sec) * 86_400) / 2 ** 30).toFixed(2)} GiB a day), ${(bytes / Math.max(1, cmdCount)).toFixed(0)} bytes a command`,
  );
  console.log(
    `  orders placed by market: ${[...placesBySymbol.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${(v / sec).toFixed(1)}/s`)
      .join(', ')}`,
  );
  const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
  console.log(
    `responsiveness: getDepth p50 ${f(median(latDepth))} ms, p99 ${f(pct(latDepth, 99))} ms; getKline(300) p50 ${f(median(latKline))} ms, p99 ${f(pct(latKline, 99))} ms`,
  );
  console.log(
    `  event-loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; CPU ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)}% of one core`,
  );
  console.log(`\n1-minute volume (${market.base}), complete minutes since start:`);
  for (const l of minutes) console.log(`  ${l}`);
  console.log(
    `  reference (= seeded history) median 1-minute volume over the 24 h before start: ${histMedian === undefined ? '-' : formatDecimal(histMedian, 8)}`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
