/**
 * Proves that every job of the server judges time on the one process clock (ctx.clock, moved by the demo's clock
 * control), not on the wall clock:
 * - the market jobs (startJobs): after POST /api/demo/clock/advance moved the clock 321 minutes, the index price
 *   job's first tick is stamped on the moved clock (and is the reference exactly, 50,000.00, before any bot quotes),
 *   and the spot and perpetual liquidity bots of BTC/USDT start on it (their run id, the clock's time at their start
 *   in base 36, is in the client order id of every order they place);
 * - the savings, rebate, OTC time-out and activity payout jobs: each hands the clock's time to its service, to the
 *   millisecond, on a clock 321 minutes ahead of its base.
 * The funding job's end-to-end proof is demo-clock-funding.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import type { AppContext } from '../../main/context';
import { createServerClock } from '../../platform/shared/clock';
import { startJobs } from '../market-jobs';
import type { PriceBar, ReferencePath, ReferencePaths } from '../market-data/price-source';
import { perpBotUserIds } from '../market-jobs/perp-bot';
import { botUserIds } from '../market-jobs/liquidity-bot';
import { startEarnJobs } from '../earn/earn.jobs';
import { startInviteJobs } from '../invite/invite.jobs';
import { startOtcJobs } from '../otc/otc.jobs';
import { startActivityJobs } from '../activity/activity.jobs';
import { post } from '../member/member-test-app';

const MIN = 60_000;
const silent = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;

/** A BTC/USDT reference path at 50,000.00, flat, one unit of volume a minute. */
const btcPath: ReferencePath = {
  base: 'BTC',
  quote: 'USDT',
  provenance: { demoData: true, source: 'test' },
  priceAt: () => '50000.00',
  bars: (periodMs: number, fromTs: number, toTs: number): PriceBar[] => {
    const out: PriceBar[] = [];
    for (let time = fromTs - (fromTs % periodMs); time < toTs && out.length < 1000; time += periodMs)
      out.push({ time, open: '50000.00', high: '50000.00', low: '50000.00', close: '50000.00', volume: '1' });
    return out;
  },
};
const btcOnly: ReferencePaths = { get: (base) => (base === 'BTC' ? btcPath : undefined), all: () => [btcPath] };

/** Polls `read` every 100 ms until it answers something (at most 20 s). */
async function until<T>(read: () => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + 20_000;
  let v = read();
  while (v === undefined && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    v = read();
  }
  return v;
}

/** The time (Unix ms) a bot's client order id `mm<runId base 36>x<counter>` names. */
const runTs = (clientOrderId: string | null | undefined) => parseInt(/^mm([0-9a-z]+)x/.exec(clientOrderId ?? '')?.[1] ?? 'NaN', 36);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ marketMakers: true });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the market jobs read the process clock', () => {
  it('stamps the index tick and starts the bots on the moved clock', async () => {
    const wallBefore = Date.now();
    expect((await post(t.app, 'demo/clock/advance', { minutes: 321 })).json()).toMatchObject({ status: 'SUCCEED', result: { offsetMs: 321 * MIN } });
    const ticks: Array<[string, string, number | undefined]> = [];
    const marketData = {
      ...t.ctx.marketData,
      setIndexPrice: (s: string, p: string, ts?: number) => (ticks.push([s, p, ts]), t.ctx.marketData.setIndexPrice(s, p, ts)),
    };
    const jobs = await startJobs({ ...t.ctx, marketData }, { paths: btcOnly });
    try {
      const first = ticks.find(([s]) => s === 'BTC/USDT');
      expect(first?.[1]).toBe('50000.00');
      expect(first?.[2]).toBeGreaterThanOrEqual(wallBefore + 321 * MIN);
      expect(first?.[2]).toBeLessThanOrEqual(t.ctx.clock.now());

      const spot = await until(() => t.ctx.host.engine.openOrders(botUserIds({ base: 'BTC', quote: 'USDT' }).maker, 'BTC/USDT')[0]);
      expect(runTs(spot?.clientOrderId)).toBeGreaterThanOrEqual(wallBefore + 321 * MIN);
      expect(runTs(spot?.clientOrderId)).toBeLessThanOrEqual(t.ctx.clock.now());
      const perp = await until(() => t.ctx.host.engine.perpOpenOrders(perpBotUserIds({ base: 'BTC', quote: 'USDT' }).maker, 'BTC/USDT')[0]);
      expect(runTs(perp?.clientOrderId)).toBeGreaterThanOrEqual(wallBefore + 321 * MIN);
      expect(runTs(perp?.clientOrderId)).toBeLessThanOrEqual(t.ctx.clock.now());
    } finally {
      await jobs.stop();
    }
  }, 60_000);
});

describe('the module jobs read the process clock', () => {
  const BASE = 1_764_000_000_000;
  /** A context of the one job: chain jobs on, a clock 321 minutes ahead of BASE, `service` as the job's service. */
  const ctxWith = <K extends 'earn' | 'invite' | 'otc' | 'activity'>(key: K, service: unknown) => {
    const clock = createServerClock(() => BASE);
    clock.advance(321 * MIN);
    return { config: { chainJobs: true } as AppContext['config'], log: silent, clock, [key]: service } as unknown as Pick<
      AppContext,
      'config' | 'log' | 'clock' | 'host' | K
    >;
  };
  /** Runs a job started by `start` until its service was called once; answers the time it was called with. */
  async function timeSeen(start: (settle: (now: number) => Promise<unknown>) => () => void, idle: unknown): Promise<number | undefined> {
    const seen: number[] = [];
    const stop = start(async (now) => {
      seen.push(now);
      return idle;
    });
    try {
      return await until(() => seen[0]);
    } finally {
      stop();
    }
  }

  it('savings interest and maturity, rebates, OTC time-outs and activity payouts are judged at the clock time', async () => {
    const moved = BASE + 321 * MIN;
    expect(await timeSeen((settleDue) => startEarnJobs(ctxWith('earn', { settleDue }), 10), false)).toBe(moved);
    expect(await timeSeen((settleDue) => startInviteJobs(ctxWith('invite', { settleDue }), 10), null)).toBe(moved);
    expect(await timeSeen((cancelExpired) => startOtcJobs(ctxWith('otc', { cancelExpired }), 10), 0)).toBe(moved);
    expect(await timeSeen((settleDue) => startActivityJobs(ctxWith('activity', { settleDue }), 10), 0)).toBe(moved);
  });
});
