/**
 * GET /fapi/v1/indexPriceKlines and /fapi/v1/premiumIndexKlines against the real engine and database (PGlite, or
 * PostgreSQL with DATABASE_URL): before the first mark price tick both answer []; after three ticks in one minute the
 * index bar holds the ticks' index prices and the premium bar the engine's own premium samples (impact bid and ask of
 * 1,000 USDT against the index), exact, checked by hand and against the engine's weighted sum of samples; the rows
 * are Binance's (volume "0", close time = next open - 1, the rest "0" / 0); an interval built from finer bars (3m)
 * keeps the premium's 8 decimals; the bars survive a flush to the klines table; bad input answers Binance's codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fundContract, tick } from '../../domains/perp/perp-test-support';

let t: TestApp;
const SYM = 'BTC/USDT';
const get = async (url: string) => {
  const r = await t.app.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.json() as unknown };
};
const px = (v: number) => BigInt(v) * 100n; // BTC/USDT price units (2 decimals)

/** The engine's running sums of premium samples of BTC/USDT (sum of k * premium_k, count). */
function premiumSums(): { weighted: bigint; count: number } {
  const snap = t.ctx.host.engine.snapshot() as unknown as { perp: { markets: Array<{ config: unknown; premiumWeighted: string; premiumCount: number }> } };
  const m = snap.perp.markets.find((x) => JSON.stringify(x.config).includes('"BTC/USDT"'))!;
  return { weighted: BigInt(m.premiumWeighted), count: m.premiumCount };
}

/** A mark price tick at `index`; answers the engine's premium sample of it (E8), from its weighted sum. */
async function tickSample(index: bigint): Promise<bigint> {
  const before = premiumSums();
  await tick(t.ctx.host, index, SYM);
  const after = premiumSums();
  expect(after.count).toBe(before.count + 1);
  return (after.weighted - before.weighted) / BigInt(after.count);
}

beforeAll(async () => {
  t = await makeTestApp();
  for (const u of ['ik-1', 'ik-2']) await fundContract(t.ctx.host, u, 100_000n);
});
afterAll(async () => {
  await t?.close();
});

describe('/fapi/v1/indexPriceKlines and premiumIndexKlines', () => {
  it('answer [] before the first mark price tick', async () => {
    expect(await get('/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1m')).toEqual({ status: 200, body: [] });
    expect(await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=1m')).toEqual({ status: 200, body: [] });
    expect(await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=1M')).toEqual({ status: 200, body: [] });
  });

  it("record each tick's index price and the engine's premium sample, in Binance's rows", async () => {
    // Start a fresh minute so that the three ticks share one bar.
    const now = t.ctx.clock.now();
    t.ctx.clock.advance(60_000 - (now % 60_000) + 1_000);
    const minute = Math.floor(t.ctx.clock.now() / 60_000) * 60_000;

    // An empty book: neither side fills the impact notional, premium 0 (and orders need this first mark price).
    expect(await tickSample(px(50_000))).toBe(0n);
    // An ask above the index adds nothing; bids above the index: the impact bid sells 1,000 USDT into 0.01 at 50100 and 0.00998 at 50050 (1,000.499 USDT
    // for 0.01998 BTC), (1000.499 - 0.01998 * 50000) / (0.01998 * 50000) = 0.0015005005..., rounded down: 0.00150050.
    await t.ctx.perp.placeOrder('ik-2', { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50150.00', quantity: '0.10000' });
    await t.ctx.perp.placeOrder('ik-1', { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '50100.00', quantity: '0.01000' });
    await t.ctx.perp.placeOrder('ik-1', { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '50050.00', quantity: '0.10000' });
    expect(await tickSample(px(50_000))).toBe(150_050n);
    // Index 50200: the bids are under it (0), the impact ask buys 0.01995 at 50150 (1,000.4925 USDT), below the index:
    // -(0.01995 * 50200 - 1000.4925) / (0.01995 * 50200) = -0.000996016..., rounded away from zero: -0.00099602.
    expect(await tickSample(px(50_200))).toBe(-99_602n);
    expect(Math.floor(t.ctx.host.engine.perpMarkState(SYM)!.markTs / 60_000) * 60_000).toBe(minute);

    const index = await get('/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1m');
    expect(index).toEqual({ status: 200, body: [[minute, '50000.00', '50200.00', '50000.00', '50200.00', '0', minute + 59_999, '0', 0, '0', '0', '0']] });
    const premium = await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=1m');
    expect(premium).toEqual({
      status: 200,
      body: [[minute, '0.00000000', '0.00150050', '-0.00099602', '-0.00099602', '0', minute + 59_999, '0', 0, '0', '0', '0']],
    });
    // 3m is built from the 1m bars at the premium's own 8 decimals.
    const m3 = Math.floor(minute / 180_000) * 180_000;
    const p3 = (await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=3m')).body as unknown[][];
    expect(p3[p3.length - 1]).toEqual([m3, '0.00000000', '0.00150050', '-0.00099602', '-0.00099602', '0', m3 + 179_999, '0', 0, '0', '0', '0']);
    // Another perpetual without a tick has no bars; startTime / endTime select as on klines.
    expect((await get('/fapi/v1/indexPriceKlines?pair=ETHUSDT&interval=1m')).body).toEqual([]);
    expect((await get(`/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1m&endTime=${minute - 1}`)).body).toEqual([]);
    expect(((await get(`/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=1m&startTime=${minute}&limit=1`)).body as unknown[][])[0]![0]).toBe(minute);

    // Written to the klines table with the other bars (row types INDEX and PREMIUM).
    await t.ctx.perpMarket.flush();
    const rows = await t.ctx.db.execute<{ type: string; open: string; low: string }>(
      `select type, open::text as open, low::text as low from klines where symbol = 'BTC/USDT' and period = '1min' and time = ${minute} and type in ('INDEX', 'PREMIUM') order by type`,
    );
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{ type: string; open: string; low: string }>;
    expect(list.map((r) => [r.type, r.open, r.low])).toEqual([
      ['INDEX', '50000.00', '50000.00'],
      ['PREMIUM', '0.00000000', '-0.00099602'],
    ]);
  });

  it("answers bad input with Binance's codes", async () => {
    expect(await get('/fapi/v1/indexPriceKlines?pair=NOPEUSDT&interval=1m')).toEqual({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
    expect(await get('/fapi/v1/premiumIndexKlines?symbol=NOPEUSDT&interval=1m')).toEqual({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
    expect((await get('/fapi/v1/indexPriceKlines?interval=1m')).body).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'pair' was not sent, was empty/null, or malformed.",
    });
    expect((await get('/fapi/v1/premiumIndexKlines?interval=1m')).body).toMatchObject({ code: -1102 });
    expect((await get('/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=7m')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
    expect((await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT&interval=1s')).body).toEqual({ code: -1120, msg: 'Invalid interval.' });
    expect((await get('/fapi/v1/premiumIndexKlines?symbol=BTCUSDT')).body).toMatchObject({ code: -1102 });
    expect((await get('/fapi/v1/indexPriceKlines?pair=BTCUSDT&interval=1m&limit=0')).body).toMatchObject({ code: -1100 });
  });
});
