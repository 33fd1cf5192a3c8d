/**
 * A quiet minute still gets its bar: after a real trade through the engine, the clock of a market
 * data service is moved on three minutes with no trade. The kline API then answers flat bars (open = high = low =
 * close = the last close, volume 0) for the quiet minutes and the current one, the live updates publish the flat
 * bar of the new minute, and a second service over the same database (a restart, two more quiet minutes later)
 * reads the persisted flat bars back and fills the minutes it was down (no reference paths there: only live bars).
 * With reference paths, the bars open at the start hold the history of their period before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kline } from '@exchange/api';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { createMarketDataService, type MarketDataService, type MarketUpdate } from './market-data.service';
import { createMarketDataRepository } from './market-data.repository';
import { fakeReferencePaths } from './fake-reference-paths';
import { toUnits } from '../../platform/shared/decimal';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MIN = 60_000;

async function until<T>(get: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('flat bars for quiet periods', () => {
  it('answers, publishes and persists a flat bar for every minute without a trade', async () => {
    let offset = 0;
    const clock = () => Date.now() + offset;
    const deps = { config: t.ctx.config, db: t.ctx.db, log: t.ctx.log, host: t.ctx.host };
    const md: MarketDataService = await createMarketDataService({ ...deps, now: clock });
    let md2: MarketDataService | undefined;
    try {
      // One real trade on LTC/USDT at 101.23 (1.5 LTC).
      await t.ctx.host.submit({ type: 'deposit', userId: 'mm-q-a', asset: 'LTC', account: 'SPOT', amount: 1_000_000_000n, from: '@faucet' });
      await t.ctx.host.submit({ type: 'deposit', userId: 'mm-q-b', asset: 'USDT', account: 'SPOT', amount: 1_000_000_000_000n, from: '@faucet' });
      await t.ctx.spot.place('mm-q-a', { pairsName: 'LTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '101.23', amount: '2' });
      await t.ctx.spot.place('mm-q-b', { pairsName: 'LTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '1.5' });
      const traded = await md.klines('LTC/USDT', 'SPOT', '1min', 10);
      expect(traded).toHaveLength(1);
      const minute = traded[0]!.time;
      expect(traded[0]).toMatchObject({ open: '101.23', close: '101.23', volume: '1.500' });

      // Three quiet minutes later: the traded bar, two flat ones and the flat current one.
      const updates: MarketUpdate[] = [];
      const off = md.subscribe((u) => updates.push(u));
      offset = minute + 3 * MIN + 1_000 - Date.now();
      const flat = (time: number): Kline => ({ time, open: '101.23', high: '101.23', low: '101.23', close: '101.23', volume: '0.000' });
      expect(await md.klines('LTC/USDT', 'SPOT', '1min', 10)).toEqual([traded[0], flat(minute + MIN), flat(minute + 2 * MIN), flat(minute + 3 * MIN)]);
      // limit and an exclusive endTime apply to the filled series
      expect((await md.klines('LTC/USDT', 'SPOT', '1min', 2)).map((b) => b.time)).toEqual([minute + 2 * MIN, minute + 3 * MIN]);
      expect((await md.klines('LTC/USDT', 'SPOT', '1min', 10, minute + 2 * MIN)).map((b) => b.time)).toEqual([minute, minute + MIN]);
      // the live update of the new minute is the flat bar (within one publish period)
      const live = await until(() =>
        updates.find((u): u is MarketUpdate & { kind: 'kline' } => u.kind === 'kline' && u.symbol === 'LTC/USDT' && u.period === '1min'),
      );
      expect(live.bar).toEqual(flat(minute + 3 * MIN));
      off();
      // a longer period is flat too when nothing traded in it since the trade's bar
      const hours = await md.klines('LTC/USDT', 'SPOT', '1hour', 10);
      expect(hours[hours.length - 1]!.close).toBe('101.23');
      await md.flush();
      await md.close();
      // the rolled bar is a row of the database (the minutes skipped in between are filled when read)
      const rows = await createMarketDataRepository(t.ctx.db).klines('LTC/USDT', 'SPOT', '1min', Number.MAX_SAFE_INTEGER, 10);
      expect(rows.find((r) => r.time === minute + 3 * MIN)).toMatchObject({ open: '101.23', close: '101.23', volume: '0.000' });

      // Restart two more minutes later: the persisted flat bars come back and the minutes in between are filled.
      offset = minute + 5 * MIN + 1_000 - Date.now();
      md2 = await createMarketDataService({ ...deps, now: clock });
      const after = await md2.klines('LTC/USDT', 'SPOT', '1min', 10);
      expect(after.map((b) => b.time)).toEqual([0, 1, 2, 3, 4, 5].map((k) => minute + k * MIN));
      expect(after.slice(1)).toEqual([1, 2, 3, 4, 5].map((k) => flat(minute + k * MIN)));
      expect(after[0]).toEqual(traded[0]);
    } finally {
      await md2?.close();
    }
  });

  it('puts the reference history before the start into the open bars, so a fresh start shows no near-empty bar', async () => {
    const started = Date.now();
    const md = await createMarketDataService({ config: t.ctx.config, db: t.ctx.db, log: t.ctx.log, host: t.ctx.host, now: () => started });
    try {
      await md.setReferencePaths(fakeReferencePaths(started)); // BTC: 3 BTC a minute
      const minute = started - (started % MIN);
      // the started minute's share: 3 BTC (300,000 units of 0.00001) x the ms of it before the start
      const tail = (300_000n * BigInt(started - minute)) / BigInt(MIN);
      for (const [period, ms] of [
        ['1min', MIN],
        ['1hour', 3_600_000],
        ['1day', 86_400_000],
      ] as const) {
        const open = started - (started % ms);
        const minutes = BigInt((minute - open) / MIN);
        const bars = await md.klines('BTC/USDT', 'SPOT', period, 2);
        const cur = bars[bars.length - 1]!;
        expect(cur.time).toBe(open);
        // the minutes of the period before the start, at 3 BTC each (no trade here)
        expect(toUnits(cur.volume, 5), period).toBe(minutes * 300_000n + tail);
        expect(cur.close).toBe(md.referencePrice('BTC/USDT'));
      }
    } finally {
      await md.close();
    }
  });
});
