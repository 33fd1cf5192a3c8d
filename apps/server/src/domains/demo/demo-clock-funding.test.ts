/**
 * Proves end to end that the funding job settles on the server's clock, the one the demo's clock control moves: an
 * app in demo mode runs its market jobs (startJobs, as server.ts does, with no reference paths so no liquidity bot
 * trades and every figure is known), the BTC reference is pinned at 50,000 through the test-only control, a long
 * and a short of 0.01 BTC are opened through the contract API, then POST /api/demo/clock/advance moves the clock
 * past the next funding time. Within the job's next checks the funding is settled at the interest rate (0.01 %, an
 * empty book has no premium): the long pays 0.05 USDT and the short receives 0.05 USDT, as the users' funding
 * records and contract accounts show exactly, and the market's next funding time moves 8 hours on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { startJobs, type Jobs } from '../market-jobs';
import type { ReferencePaths } from '../market-data/price-source';
import { apiCaller, apiOk, loginUser, type TestUser } from '../spot/spot-test-support';
import { fundContract } from '../perp/perp-test-support';

const SYM = 'BTC/USDT';
const H8 = 28_800_000;
const noPaths: ReferencePaths = { get: () => undefined, all: () => [] };

let t: TestApp;
let jobs: Jobs | undefined;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

const ok = apiOk(call);

/** Polls `read` every 100 ms until `done` holds (at most 15 s); answers the last value read. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  let v = await read();
  while (!done(v) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    v = await read();
  }
  return v;
}

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, marketMakers: true });
  users.long = await loginUser(t, 'long@funding.test');
  users.short = await loginUser(t, 'short@funding.test');
  await fundContract(t.ctx.host, users.long.userId, 1_000n);
  await fundContract(t.ctx.host, users.short.userId, 1_000n);
}, 60_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

describe('funding on the moved clock', () => {
  it('settles the funding once the demo clock control passes the funding time', async () => {
    await ok(null, 'POST', 'demo/contract/setReferencePrice', { symbol: SYM, price: '50000' });
    jobs = await startJobs(t.ctx, { paths: noPaths });
    const market = () => ok(null, 'GET', 'contract/market/getMarket', { symbol: SYM });
    expect((await until(market, (m) => m.markPrice === '50000.00')).markPrice).toBe('50000.00');

    const sell = await ok('short', 'POST', 'contract/contract/placeOrder', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50000', quantity: '0.01' });
    expect(sell.status).toBe('NEW');
    const buy = await ok('long', 'POST', 'contract/contract/placeOrder', { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: '0.01' });
    expect(buy).toMatchObject({ status: 'FILLED', avgPrice: '50000.00' });
    // Fees: the long took 500 USDT at 0.05 % (0.25), the short made it at 0.02 % (0.10).
    expect((await ok('long', 'GET', 'contract/contract/getAccount')).walletBalance).toBe('999.75000000');
    expect((await ok('short', 'GET', 'contract/contract/getAccount')).walletBalance).toBe('999.90000000');

    // Nothing is due on the wall clock: the jobs have run for a while and no funding was paid.
    const next: number = (await market()).nextFundingTime;
    expect(next % H8).toBe(0);
    expect(next).toBeGreaterThan(t.ctx.clock.now());
    expect((await ok('long', 'GET', 'contract/contract/getFundingRecords')).total).toBe(0);

    const minutes = Math.ceil((next - t.ctx.clock.now()) / 60_000);
    const moved = await ok(null, 'POST', 'demo/clock/advance', { minutes: String(minutes) });
    expect(moved.now).toBeGreaterThanOrEqual(next);

    const paid = await until(
      () => ok('long', 'GET', 'contract/contract/getFundingRecords'),
      (p) => p.total > 0,
    );
    expect(paid.records).toEqual([{ symbol: SYM, fundingTime: next, rate: '0.010000', amount: '-0.05000000', time: expect.any(Number) }]);
    expect(paid.records[0].time).toBeGreaterThanOrEqual(next);
    const got = await ok('short', 'GET', 'contract/contract/getFundingRecords');
    expect(got.records).toEqual([{ symbol: SYM, fundingTime: next, rate: '0.010000', amount: '0.05000000', time: paid.records[0].time }]);
    expect((await ok('long', 'GET', 'contract/contract/getAccount')).walletBalance).toBe('999.70000000');
    expect((await ok('short', 'GET', 'contract/contract/getAccount')).walletBalance).toBe('999.95000000');

    const after = await market();
    expect(after).toMatchObject({ nextFundingTime: next + H8, lastFundingRate: '0.010000' });
    // Settled once: the job's later checks pay nothing more.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await ok('long', 'GET', 'contract/contract/getFundingRecords')).total).toBe(1);
  }, 60_000);
});
