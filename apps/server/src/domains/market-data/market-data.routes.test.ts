/**
 * data/data over HTTP (app.inject on PGlite, or PostgreSQL with DATABASE_URL): every route's fields, the
 * rankings' order, k-line periods/limit/endTime, depth sequence and trades after real orders through the engine,
 * index prices of contract listings, banners and notices in both languages, and bad inputs -> FAILED 4xx.
 * History comes from a small fake ReferencePaths (fake-reference-paths.ts) with known 24 h changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pair } from '@exchange/api';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fakeReferencePaths } from './fake-reference-paths';
import { toUnits, fromUnits } from '../../platform/shared/decimal';
import { barOpen } from './kline-math';

let t: TestApp;
const D = '/api/data/data/';

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ url: D + url, headers });
  return { status: res.statusCode, body: res.json() as { status: string; errorCode: string; errorMessage: string; result: never } };
}

async function waitFor(cond: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  t = await makeTestApp();
  await t.ctx.marketData.setReferencePaths(fakeReferencePaths(Date.now()));
});
afterAll(async () => {
  await t?.close();
});

describe('listings', () => {
  it('getMainCurs lists USDT then BTC', async () => {
    const r = await get('getMainCurs');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'SUCCEED', errorCode: '0', result: ['USDT', 'BTC'] });
  });

  it('getPairsByMainCur gives spot and contract pairs with their rules', async () => {
    const usdt = (await get('getPairsByMainCur?mainCur=USDT&type=SPOT')).body.result as Pair[];
    expect(usdt.map((p) => p.pairsName)).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'LTC/USDT',
      'BNB/USDT',
      'SOL/USDT',
      'XRP/USDT',
      'DOGE/USDT',
      'ADA/USDT',
      'SUI/USDT',
      'TON/USDT',
    ]);
    const btc = usdt[0]!;
    expect(btc).toMatchObject({
      tokenCur: 'BTC',
      mainCur: 'USDT',
      type: 'SPOT',
      priceDecimals: 2,
      qtyDecimals: 5,
      tickSize: '0.01',
      stepSize: '0.00001',
      minQty: '0.00001',
      minNotional: '5',
      isNew: false,
      demoData: false,
    });
    expect(btc.indexPrice).toBeUndefined();
    expect(usdt.find((p) => p.tokenCur === 'DOGE')).toMatchObject({ tickSize: '0.00001', stepSize: '1', demoData: true });
    // Before the first trade the price is the reference price (fake BTC path: 90000 at the anchor, +2 % a day).
    expect(Math.abs(Number(btc.price) - 90000)).toBeLessThan(50);
    // chPrice = price * 7.10, 2 decimals.
    const cny = toUnits(btc.price, 2) * 710n;
    expect(btc.chPrice).toBe(fromUnits((cny + 50n) / 100n, 2));
    expect(btc.updown).toMatch(/^-?[0-9]+\.[0-9]{2}$/);
    expect(toUnits(btc.volume, 5)).toBeGreaterThan(0n);

    const cross = (await get('getPairsByMainCur?mainCur=BTC&type=SPOT')).body.result as Pair[];
    expect(cross.map((p) => p.pairsName)).toEqual(['ETH/BTC', 'LTC/BTC']);
    expect(cross[0]).toMatchObject({ priceDecimals: 5, qtyDecimals: 3, minNotional: '0.0001' });
    // ETH/BTC ≈ 3000 / 90000; its CNY price goes through BTC/USDT.
    expect(Math.abs(Number(cross[0]!.price) - 3000 / 90000)).toBeLessThan(0.001);
    expect(Math.abs(Number(cross[0]!.chPrice) - 3000 * 7.1)).toBeLessThan(30);

    const contracts = (await get('getPairsByMainCur?mainCur=USDT&type=CONTRACT')).body.result as Pair[];
    expect(contracts.map((p) => p.tokenCur)).toEqual(['BTC', 'ETH', 'LTC', 'BNB', 'SOL', 'XRP', 'DOGE']);
    for (const p of contracts) expect(p.indexPrice).toBe(p.price);
  });

  it('contract pairs carry the index price set by the index job', async () => {
    t.ctx.marketData.setIndexPrice('ETH/USDT', '3012.345678');
    const pair = (await get('getCoinInfo?pairsName=ETH/USDT&type=CONTRACT')).body.result as { pair: Pair };
    expect(pair.pair).toMatchObject({ type: 'CONTRACT', price: '3012.35', indexPrice: '3012.35' });
    expect(t.ctx.marketData.indexPrice('ETH/USDT')).toBe('3012.35');
    // A contract listing's bars are its perpetual's trade bars (the reference history before the first trade), as
    // contract/market/getKlines answers them, not the index's.
    const bars = (await get('getKline?pairsName=ETH/USDT&type=CONTRACT&period=1min&limit=3')).body.result as Array<{ close: string }>;
    const perp = await t.ctx.perpMarket.klines('ETH/USDT', 'last', '1min', 3);
    expect(bars).toEqual(perp);
    expect(bars).toHaveLength(3);
  });
});

describe('rankings', () => {
  it('UPDOWN sorts by 24 h change, highest first', async () => {
    const r = (await get('getIndexCoin?getCoinType=UPDOWN')).body.result as Pair[];
    expect(r).toHaveLength(10);
    expect(r.map((p) => p.tokenCur)).toEqual(['DOGE', 'TON', 'LTC', 'SOL', 'BTC', 'ADA', 'BNB', 'ETH', 'XRP', 'SUI']);
    for (let i = 1; i < r.length; i++) expect(toUnits(r[i - 1]!.updown, 2)).toBeGreaterThanOrEqual(toUnits(r[i]!.updown, 2));
    // DOGE's fake path rises 8 % a day: the window opens at ~0.184, the price is ~0.2 -> ~8.7 %.
    expect(Number(r[0]!.updown)).toBeGreaterThan(8);
    expect(Number(r[9]!.updown)).toBeLessThan(-4);
  });
  it('VOLUME sorts by 24 h quote volume, highest first', async () => {
    const r = (await get('getIndexCoin?getCoinType=VOLUME')).body.result as Pair[];
    expect(r).toHaveLength(10);
    for (let i = 1; i < r.length; i++) expect(toUnits(r[i - 1]!.quoteVolume, 8)).toBeGreaterThanOrEqual(toUnits(r[i]!.quoteVolume, 8));
    expect(r[0]!.tokenCur).toBe('BTC'); // 3 BTC a minute * 90000 beats every other fake coin
  });
  it('PROJECT lists the new listings, newest first; TOP the four headline pairs', async () => {
    const p = (await get('getIndexCoin?getCoinType=PROJECT')).body.result as Pair[];
    expect(p.map((x) => x.pairsName)).toEqual(['TON/USDT', 'SUI/USDT']);
    expect(p.every((x) => x.isNew)).toBe(true);
    const top = (await get('getIndexCoin?getCoinType=TOP')).body.result as Pair[];
    expect(top.map((x) => x.pairsName)).toEqual(['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'BNB/USDT']);
  });
});

describe('coin info', () => {
  it('gives the pair and the coin introduction in the request language', async () => {
    const en = (await get('getCoinInfo?pairsName=BTC/USDT', { lang: 'en' })).body.result as { pair: Pair; coin: Record<string, string> };
    expect(en.pair.pairsName).toBe('BTC/USDT');
    expect(en.coin).toMatchObject({
      tokenCur: 'BTC',
      fullName: 'Bitcoin',
      issueTime: '2009-01-03',
      totalSupply: '21,000,000',
      crowdfundingPrice: '--',
      whitePaper: 'https://bitcoin.org/bitcoin.pdf',
      website: 'https://bitcoin.org',
      blockExplorer: 'https://mempool.space',
    });
    expect(en.coin.introduction).toMatch(/^Bitcoin is the first/);
    const zh = (await get('getCoinInfo?pairsName=SUI/USDT', { 'accept-language': 'zh-CN' })).body.result as { coin: Record<string, string> };
    expect(zh.coin.introduction).toMatch(/^Sui是/);
    expect(zh.coin.crowdfundingPrice).toBe('0.10 USD');
  });
});

describe('k-lines', () => {
  it('returns 300 bars by default, oldest first, one period apart', async () => {
    const bars = (await get('getKline?pairsName=BTC/USDT&type=SPOT&period=1min')).body.result as Array<{
      time: number;
      open: string;
      high: string;
      low: string;
      close: string;
      volume: string;
    }>;
    expect(bars).toHaveLength(300);
    for (let i = 1; i < bars.length; i++) expect(bars[i]!.time - bars[i - 1]!.time).toBe(60_000);
    for (const b of bars) {
      expect(toUnits(b.high, 2)).toBeGreaterThanOrEqual(toUnits(b.open, 2));
      expect(toUnits(b.low, 2)).toBeLessThanOrEqual(toUnits(b.close, 2));
      expect(b.volume).toMatch(/^[0-9]+\.[0-9]{5}$/);
    }
  });
  it('honours limit and an exclusive endTime', async () => {
    const all = (await get('getKline?pairsName=LTC/USDT&type=SPOT&period=5min&limit=20')).body.result as Array<{ time: number }>;
    expect(all).toHaveLength(20);
    const end = all[10]!.time;
    const before = (await get(`getKline?pairsName=LTC/USDT&type=SPOT&period=5min&limit=5&endTime=${end}`)).body.result as Array<{ time: number }>;
    expect(before.map((b) => b.time)).toEqual(all.slice(5, 10).map((b) => b.time));
  });
  it('serves every period aligned to its length (weeks from Monday)', async () => {
    for (const period of ['1min', '5min', '15min', '30min', '1hour', '1day', '1week'] as const) {
      const bars = (await get(`getKline?pairsName=DOGE/USDT&type=SPOT&period=${period}&limit=1500`)).body.result as Array<{ time: number }>;
      expect(bars.length).toBeGreaterThan(0);
      for (const b of bars) expect(barOpen(period, b.time)).toBe(b.time);
      if (period === '1hour') expect(bars.length).toBeGreaterThanOrEqual(25);
    }
  });
});

describe('depth and trades from the engine', () => {
  it('increments the depth seq per book change and lists trades newest first', async () => {
    const host = t.ctx.host;
    await host.submit({ type: 'deposit', userId: 'mm-test-a', asset: 'BTC', account: 'SPOT', amount: 100_000_000n, from: '@faucet' });
    await host.submit({ type: 'deposit', userId: 'mm-test-b', asset: 'USDT', account: 'SPOT', amount: 1_000_000_00000000n, from: '@faucet' });
    const d0 = (await get('getDepth?pairsName=BTC/USDT')).body.result as { pairsName: string; seq: number; bids: string[][]; asks: string[][] };
    expect(d0).toMatchObject({ pairsName: 'BTC/USDT', bids: [], asks: [] });

    await t.ctx.spot.place('mm-test-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '90000.00', amount: '0.01' });
    await t.ctx.spot.place('mm-test-a', { pairsName: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '90100', amount: '0.02' });
    await t.ctx.spot.place('mm-test-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '89000.5', amount: '0.03' });
    await waitFor(async () => ((await get('getDepth?pairsName=BTC/USDT')).body.result as { seq: number }).seq === d0.seq + 3);
    const d1 = (await get('getDepth?pairsName=BTC/USDT&limit=1')).body.result as { seq: number; bids: string[][]; asks: string[][] };
    expect(d1).toMatchObject({ seq: d0.seq + 3, bids: [['89000.50', '0.03000']], asks: [['90000.00', '0.01000']] });

    await t.ctx.spot.place('mm-test-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '90000', amount: '0.004' });
    await t.ctx.spot.place('mm-test-b', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', amount: '0.006' });
    await waitFor(async () => ((await get('getTrades?pairsName=BTC/USDT')).body.result as unknown[]).length === 2);
    const d2 = (await get('getDepth?pairsName=BTC/USDT')).body.result as { seq: number; bids: string[][]; asks: string[][] };
    expect(d2.seq).toBe(d0.seq + 5);
    expect(d2.asks).toEqual([['90100.00', '0.02000']]);
    const trades = (await get('getTrades?pairsName=BTC/USDT')).body.result as Array<{ id: string; price: string; amount: string; side: string; time: number }>;
    expect(trades.map((x) => [x.price, x.amount, x.side])).toEqual([
      ['90000.00', '0.00600', 'BUY'],
      ['90000.00', '0.00400', 'BUY'],
    ]);
    expect(BigInt(trades[0]!.id)).toBeGreaterThan(BigInt(trades[1]!.id));
    expect((await get('getTrades?pairsName=BTC/USDT&limit=1')).body.result).toHaveLength(1);

    // The last trade is now the pair's price; the current 1-minute bar closes at it.
    const pair = (await get('getCoinInfo?pairsName=BTC/USDT')).body.result as { pair: Pair };
    expect(pair.pair.price).toBe('90000.00');
    const bars = (await get('getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=2')).body.result as Array<{ time: number; close: string; volume: string }>;
    expect(bars[1]!.close).toBe('90000.00');
    expect(bars[1]!.time).toBe(barOpen('1min', trades[0]!.time));
    // Bars are persisted by the periodic flush: after it, the database gives the same bar.
    await t.ctx.marketData.flush();
    const again = (await get('getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=2')).body.result as Array<{ time: number; close: string }>;
    expect(again).toEqual(bars);

    const contract = (await get('getDepth?pairsName=BTC/USDT&type=CONTRACT')).body.result as { seq: number; bids: unknown[] };
    expect(contract).toMatchObject({ seq: 0, bids: [], asks: [] });
  });
});

describe('banners and notices', () => {
  it('lists three banners per language and serves their SVG images', async () => {
    const zh = (await get('getBanners?bannerType=DATA_BANNER&global=CHINESE_SIM')).body.result as Array<{ id: number; bannerUrl: string; title: string }>;
    const en = (await get('getBanners?bannerType=DATA_BANNER&global=ENGLISH')).body.result as Array<{ id: number; bannerUrl: string; title: string }>;
    expect(zh).toHaveLength(3);
    expect(en.map((b) => b.id)).toEqual(zh.map((b) => b.id));
    expect(zh[0]!.title).toBe('欢迎体验演示交易所');
    expect(en[0]).toMatchObject({ title: 'Welcome to the demo exchange', bannerUrl: '/api/static/banners/welcome-en.svg' });
    const img = await t.app.inject(en[0]!.bannerUrl);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toContain('image/svg+xml');
    expect(img.body).toContain('Welcome to the demo exchange');
    for (const bad of ['/api/static/banners/nope.svg', '/api/static/banners/..%2f..%2fpglite.svg', '/api/static/banners/welcome-en.txt']) {
      const r = await t.app.inject(bad);
      expect(r.statusCode).toBe(404);
      expect(r.json().status).toBe('FAILED');
    }
  });
  it('lists at least five notices newest first and gives each in both languages', async () => {
    const list = (await get('getNotices?noticeType=OFFICIAL&global=CHINESE_SIM')).body.result as Array<{ id: number; title: string; createTime: number }>;
    expect(list.length).toBeGreaterThanOrEqual(5);
    for (let i = 1; i < list.length; i++) expect(list[i - 1]!.createTime).toBeGreaterThanOrEqual(list[i]!.createTime);
    expect(list[0]!.title).toContain('TON');
    const demo = list.find((n) => n.title.includes('演示模式'))!;
    const en = (await get(`getNoticeDetail?id=${demo.id}&global=ENGLISH`)).body.result as { id: number; title: string; content: string };
    expect(en.title).toBe('About demo mode: demo market data and demo funds');
    expect(en.content).toContain('10,000 demo USDT');
    const zh = (await get(`getNoticeDetail?id=${demo.id}`, { lang: 'zh' })).body.result as { content: string };
    expect(zh.content).toContain('演示资金');
    const missing = await get('getNoticeDetail?id=999999', { lang: 'en' });
    expect(missing).toMatchObject({ status: 404, body: { status: 'FAILED', errorCode: 'not_found', errorMessage: 'Resource not found' } });
  });
});

describe('bad inputs', () => {
  const huge = 'A'.repeat(100_000);
  const cases: Array<[string, number]> = [
    ['getPairsByMainCur?mainCur=USDT', 400],
    ['getPairsByMainCur?mainCur=USDT&type=FUTURES', 400],
    [`getPairsByMainCur?mainCur=${huge}&type=SPOT`, 400],
    ['getBanners?bannerType=OTHER', 400],
    ['getBanners?global=KLINGON', 400],
    ['getNotices?noticeType=PRIVATE', 400],
    ['getNoticeDetail', 400],
    ['getNoticeDetail?id=abc', 400],
    ['getNoticeDetail?id=0', 400],
    ['getNoticeDetail?id=-1', 400],
    ['getNoticeDetail?id=1e308', 400],
    ['getIndexCoin', 400],
    ['getIndexCoin?getCoinType=HOT', 400],
    ['getCoinInfo', 400],
    ['getCoinInfo?pairsName=btc/usdt', 400],
    ['getCoinInfo?pairsName=FOO/USDT', 400],
    ["getCoinInfo?pairsName=BTC/USDT'%20OR%201=1--", 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT', 400],
    ['getKline?pairsName=BTC/USDT&period=1min', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=2min', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=0', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=1501', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=NaN', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=Infinity', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&limit=2.5', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&endTime=-5', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&endTime=abc', 400],
    ['getKline?pairsName=BTC/USDT&type=SPOT&period=1min&endTime=1e308', 400],
    ['getKline?pairsName=SUI/USDT&type=CONTRACT&period=1min', 400],
    ['getDepth?pairsName=BTC/USDT&limit=201', 400],
    ['getDepth?pairsName=BTC/USDT&limit=-1', 400],
    ['getDepth?pairsName=%3Cscript%3E', 400],
    ['getDepth?pairsName=ADA/USDT&type=CONTRACT', 400],
    ['getTrades?pairsName=BTC/USDT&limit=1e308', 400],
    ['getTrades', 400],
  ];
  it.each(cases)('%s -> FAILED %i with a message in both languages', async (url, status) => {
    const en = await get(url, { lang: 'en' });
    expect(en.status).toBe(status);
    expect(en.body.status).toBe('FAILED');
    expect(en.body.result).toBeNull();
    expect(en.body.errorMessage).toMatch(/^[A-Z]/);
    const zh = await get(url, { lang: 'zh' });
    expect(zh.status).toBe(status);
    expect(zh.body.errorMessage).toMatch(/[\u4e00-\u9fff]/);
  });
});
