/**
 * The server process of the WebSocket fan-out benchmark (ws-fanout.ts): the real app (createContext + buildApp, the
 * engine host with its journal and fsync, PGlite in a temporary DATA_DIR, no liquidity bots) listening on
 * 127.0.0.1:<argv[2]>, plus an order driver and the time stamps.
 *
 * Order driver (on the parent's `run`): `rate` commands a second through `host.submit`, paced every 10 ms (not
 * awaited one by one, so they share group commits as concurrent clients' orders do), on BTC/USDT: a resting limit
 * SELL and BUY at a random level 1-20 ticks from the mid price, then a market BUY and SELL of the same size, so every
 * command changes the depth and half of them trade. Three users funded by deposits beforehand.
 *
 * Stamps (the bench-only hook, documented in bench/README.md): a listener on the market-data service, subscribed
 * before the WebSocket hub exists (the hub subscribes at the first connection, and listeners run in the order they
 * subscribed), notes the monotonic time at which each depth update (by its seq) and each trade (by its id) leaves the
 * host's onEvents for that command: that is the engine event time the client-side receipts are measured from.
 * Only stamps inside the measured window are sent back to the parent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CommandInput } from '../../../apps/server/src/platform/engine-host/engine-host';
import { loadConfig } from '../../../apps/server/src/platform/config/env';
import { createContext } from '../../../apps/server/src/main/context';
import { buildApp } from '../../../apps/server/src/main/app';
import { wsHubStats } from '../../../apps/server/src/gateways/ws/ws.routes';
import { monoMs, type FromServer, type ToServer } from './common';

const SYMBOL = 'BTC/USDT';
const MAKER_A = 'bench-ws-maker-a';
const MAKER_B = 'bench-ws-maker-b';
const TAKER = 'bench-ws-taker';

function send(m: FromServer): void {
  process.send?.(m);
}

/** A small deterministic PRNG (mulberry32), so every run submits the same commands. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<void> {
  const port = Number.parseInt(process.argv[2] ?? '', 10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ws-'));
  const config = loadConfig(
    // WS_FLUSH_MS from the bench's environment, to compare flush intervals.
    { NODE_ENV: 'development', LOG_LEVEL: 'warn', WS_FLUSH_MS: process.env.WS_FLUSH_MS },
    {
      dataDir,
      port,
      host: '127.0.0.1',
      marketMakers: false,
      orderRatePer10s: 0,
      // Every benchmark socket comes from 127.0.0.1 and sends two subscriptions.
      wsMaxPerIp: 0,
      rateLimitPerMin: 0,
    },
  );
  const ctx = await createContext(config);
  const host = ctx.host;

  // Stamps: subscribed before the hub (created at the first WebSocket connection) subscribes.
  const depthStamps = new Map<number, number>();
  const tradeStamps = new Map<number, number>();
  let stamping = false;
  ctx.marketData.subscribe((u) => {
    if (!stamping || u.symbol !== SYMBOL) return;
    const t = monoMs();
    if (u.kind === 'depth') depthStamps.set(u.seq, t);
    else if (u.kind === 'trades') for (const tr of u.trades) tradeStamps.set(Number(tr.id), t);
  });

  const app = await buildApp(ctx);
  await app.listen({ port, host: '127.0.0.1' });

  const market = host.engine.market(SYMBOL);
  if (!market) throw new Error(`${SYMBOL} is not listed`);
  const big = 10n ** 30n;
  for (const userId of [MAKER_A, MAKER_B, TAKER]) {
    for (const asset of [market.base, market.quote]) {
      const r = await host.submit({ type: 'deposit', userId, asset, account: 'SPOT', amount: big, from: '@faucet' });
      if (r.code !== 'ok') throw new Error(`deposit refused: ${r.code}`);
    }
  }
  const tick = market.tickSize;
  const mid = ((90_000n * 10n ** BigInt(market.priceDecimals)) / tick) * tick;
  // 0.01 BTC (above min quantity and notional at this price).
  const qty = (10n ** BigInt(market.qtyDecimals) / 100n / market.stepSize) * market.stepSize;
  const limit = (userId: string, side: 'BUY' | 'SELL', k: bigint, quantity = qty * 5n): CommandInput => ({
    type: 'placeOrder',
    userId,
    symbol: SYMBOL,
    side,
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price: side === 'SELL' ? mid + k * tick : mid - k * tick,
    quantity,
  });
  // The initial book: 20 levels a side.
  for (let k = 1n; k <= 20n; k++) {
    await host.submit(limit(MAKER_A, 'SELL', k));
    await host.submit(limit(MAKER_B, 'BUY', k));
  }
  const rnd = prng(42);
  let i = 0;
  const next = (): CommandInput => {
    const k = BigInt(1 + Math.floor(rnd() * 20));
    switch (i++ % 4) {
      case 0:
        return limit(MAKER_A, 'SELL', k, qty);
      case 1:
        return limit(MAKER_B, 'BUY', k, qty);
      case 2:
        return { type: 'placeOrder', userId: TAKER, symbol: SYMBOL, side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: qty };
      default:
        return { type: 'placeOrder', userId: TAKER, symbol: SYMBOL, side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: qty };
    }
  };

  send({ type: 'ready', port });

  process.on('message', (m: ToServer) => {
    if (m.type === 'exit') {
      void (async () => {
        await app.close();
        await ctx.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      })();
      return;
    }
    void run(m.warmupS, m.measureS, m.rate);
  });

  async function run(warmupS: number, measureS: number, rate: number): Promise<void> {
    let submitted = 0;
    let rejected = 0;
    const inFlight = new Set<Promise<void>>();
    const t0 = monoMs();
    const warmEnd = t0 + warmupS * 1000;
    const end = warmEnd + measureS * 1000;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    let cpu0: NodeJS.CpuUsage | null = null;
    stamping = true;
    // Paced by the clock, not by the timer's count, so a late timer catches up and the rate holds.
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const now = monoMs();
        if (cpu0 === null && now >= warmEnd) {
          cpu0 = process.cpuUsage();
          loop.enable();
        }
        const due = Math.floor(((Math.min(now, end) - t0) / 1000) * rate);
        while (submitted < due) {
          submitted++;
          const p = host.submit(next()).then(
            (r) => {
              if (r.code !== 'ok') rejected++;
            },
            () => {
              rejected++;
            },
          );
          inFlight.add(p);
          void p.finally(() => inFlight.delete(p));
        }
        if (now >= end) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    await Promise.all([...inFlight]);
    const cpu = process.cpuUsage(cpu0 ?? undefined);
    loop.disable();
    // Let the last pushes reach the clients before the parent asks them to stop recording.
    await new Promise((r) => setTimeout(r, 1000));
    stamping = false;
    const from = warmEnd;
    const inWindow = (m: Map<number, number>) => [...m].filter(([, t]) => t >= from && t <= end);
    send({
      type: 'done',
      depth: inWindow(depthStamps),
      trades: inWindow(tradeStamps),
      from,
      to: end,
      submitted,
      rejected,
      cpuMs: (cpu.user + cpu.system) / 1000,
      windowMs: end - warmEnd,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
      hub: { ...(wsHubStats(ctx) ?? {}) },
    });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
