/**
 * One source for a perpetual's 24 h figures on every screen: for the same contract, the contract trade
 * screen's contract/market/getMarket, the quotes list's data/data/getPairsByMainCur type CONTRACT and the pair
 * detail's data/data/getCoinInfo type CONTRACT give the same last price, 24 h change, high, low and volumes, and
 * getKline type CONTRACT gives the perpetual's trade bars: before the first trade (the reference history written
 * by the backfill), after book trades (with the pushes of both), and after a restart that rebuilds the engine from
 * its journal and the bars from the database. PGlite in a data directory of its own, the fake reference paths.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, CommandResult } from '@exchange/core';
import type { ContractMarket, Kline, Pair } from '@exchange/api';
import type { FastifyInstance } from 'fastify';
import { openTestApp, type TestApp } from '../../../../test/helpers';
import { get } from '../../member/member-test-app';
import { fakeReferencePaths } from '../fake-reference-paths';
import type { MarketUpdate } from '../updates';

const U = 100_000_000n; // one USDT
const SYMBOL = 'BTC/USDT';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-mdc-ticker-'));
let t: TestApp;

/** The figures every screen shows. */
interface Figures {
  last: string;
  change: string;
  high: string;
  low: string;
  volume: string;
  quoteVolume: string;
}
const ofPair = (p: Pair): Figures => ({ last: p.price, change: p.updown, high: p.high, low: p.low, volume: p.volume, quoteVolume: p.quoteVolume });
/** The contract screen shows the last trade, else the mark price (ContractBook, ContractSelectPopup). */
const ofMarket = (m: ContractMarket): Figures => ({
  last: m.lastPrice || m.markPrice,
  change: m.change24h,
  high: m.high24h,
  low: m.low24h,
  volume: m.volume24h,
  quoteVolume: m.quoteVolume24h,
});

/** Waits past the last seconds of a minute: the 24 h window drops its oldest minute when the clock crosses one. */
async function awayFromMinuteEdge(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 50_000) await new Promise((r) => setTimeout(r, 60_500 - into));
}

/** The three screens' answers for SYMBOL, read together. */
async function views(app: FastifyInstance): Promise<{ market: Figures; list: Figures; detail: Figures; raw: ContractMarket; index: string[] }> {
  await awayFromMinuteEdge();
  const raw = (await get(app, 'contract/market/getMarket', { symbol: SYMBOL })).json().result as ContractMarket;
  const pairs = (await get(app, 'data/data/getPairsByMainCur', { mainCur: 'USDT', type: 'CONTRACT' })).json().result as Pair[];
  const detail = (await get(app, 'data/data/getCoinInfo', { pairsName: SYMBOL, type: 'CONTRACT' })).json().result as { pair: Pair };
  const listed = pairs.find((p) => p.pairsName === SYMBOL);
  expect(listed).toBeDefined();
  return {
    market: ofMarket(raw),
    list: ofPair(listed!),
    detail: ofPair(detail.pair),
    raw,
    index: [raw.indexPrice, listed!.indexPrice ?? '', detail.pair.indexPrice ?? ''],
  };
}

/** Both k-line endpoints for SYMBOL, the last `limit` 1-minute bars. */
async function bars(app: FastifyInstance, limit: number): Promise<{ contract: Kline[]; quotes: Kline[] }> {
  const contract = (await get(app, 'contract/market/getKlines', { symbol: SYMBOL, period: '1min', limit: String(limit) })).json().result as Kline[];
  const quotes = (await get(app, 'data/data/getKline', { pairsName: SYMBOL, type: 'CONTRACT', period: '1min', limit: String(limit) })).json().result as Kline[];
  return { contract, quotes };
}

const submit = async (cmd: Record<string, unknown>): Promise<CommandResult> => {
  const r = await t.ctx.host.submit(cmd as unknown as Command);
  expect(r.code).toBe('ok');
  return r;
};

beforeAll(async () => {
  t = await openTestApp(dataDir);
  await t.ctx.marketData.setReferencePaths(fakeReferencePaths(Date.now()));
  for (const id of ['mdc-1', 'mdc-2'])
    await submit({ type: 'deposit', userId: id, asset: 'USDT', account: 'CONTRACT', amount: 100_000n * U, from: '@faucet', ref: `mdc-${id}` });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let beforeRestart: Figures;

describe('a perpetual shows the same 24 h figures on every screen', () => {
  it('before the first trade: the reference history fills the trade bars and the 24 h window', async () => {
    const v = await views(t.app);
    // No trade, mark or index price yet: the contract screen shows '--' for the price (lastPrice and markPrice are
    // empty), the quotes the window's last close; every other figure is the same.
    expect(v.raw.lastPrice).toBe('');
    expect(v.raw.markPrice).toBe('');
    expect(v.detail).toEqual(v.list);
    expect({ ...v.list, last: '' }).toEqual(v.market);
    expect(Math.abs(Number(v.list.last) - 90_000)).toBeLessThan(50);
    // The fake BTC path rises 2 % a day: the window's history gives the change.
    expect(Number(v.market.change)).toBeGreaterThan(1.5);
    expect(Number(v.market.change)).toBeLessThan(2.5);
    expect(Number(v.market.volume)).toBeGreaterThan(3 * 1000); // ~3 BTC a minute of history
    const b = await bars(t.app, 1500);
    expect(b.contract.length).toBeGreaterThanOrEqual(1499);
    expect(b.quotes).toEqual(b.contract);
    expect(Math.abs(Number(b.contract.at(-1)!.close) - 90_000)).toBeLessThan(50);
  });

  it('after book trades: last trade, change, high, low and volumes agree, and so do the pushes', async () => {
    const pushed: MarketUpdate[] = [];
    const off = t.ctx.marketData.subscribe((u) => pushed.push(u));
    const tickers: ContractMarket[] = [];
    const offContract = t.ctx.perpMarket.subscribe((u) => {
      if (u.kind === 'contractTicker' && u.symbol === SYMBOL) tickers.push(u.data);
    });
    try {
      await submit({ type: 'perpMarkPrice', symbol: SYMBOL, indexPrice: 9_000_000n }); // 90,000.00
      const v0 = await views(t.app);
      expect(v0.market.last).toBe(v0.raw.markPrice); // no trade yet: the mark price
      expect(v0.index).toEqual(['90000.00', '90000.00', '90000.00']); // and one index price
      expect(v0.list).toEqual(v0.market);
      expect(v0.detail).toEqual(v0.market);
      // 0.01 BTC at 95,000.00 (a price above the history's high), then 0.002 BTC at 94,000.00
      await submit({
        type: 'perpPlaceOrder',
        userId: 'mdc-2',
        symbol: SYMBOL,
        side: 'SELL',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: 9_500_000n,
        quantity: 1_000n,
      });
      await submit({
        type: 'perpPlaceOrder',
        userId: 'mdc-1',
        symbol: SYMBOL,
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: 9_500_000n,
        quantity: 1_000n,
      });
      await submit({
        type: 'perpPlaceOrder',
        userId: 'mdc-1',
        symbol: SYMBOL,
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: 9_400_000n,
        quantity: 200n,
      });
      await submit({ type: 'perpPlaceOrder', userId: 'mdc-2', symbol: SYMBOL, side: 'SELL', orderType: 'MARKET', timeInForce: 'IOC', quantity: 200n });
      const v = await views(t.app);
      expect(v.raw.lastPrice).toBe('94000.00');
      expect(v.market.last).toBe('94000.00');
      expect(v.market.high).toBe('95000.00');
      expect(v.list).toEqual(v.market);
      expect(v.detail).toEqual(v.market);
      // the trades count in the volumes: 0.012 BTC and 950 + 188 USDT more than the history alone
      expect(BigInt(v.market.volume.replace('.', '')) - BigInt(v0.market.volume.replace('.', ''))).toBe(1_200n);
      expect(BigInt(v.market.quoteVolume.replace('.', '')) - BigInt(v0.market.quoteVolume.replace('.', ''))).toBe(1_138n * U);
      // The change from the window's open to the last trade: (94,000 - open) / open
      const open = Number(v.market.last) / (1 + Number(v.market.change) / 100);
      expect(Math.abs(open - 90_000 / 1.02)).toBeLessThan(100);
      const b = await bars(t.app, 3);
      expect(b.quotes).toEqual(b.contract);
      expect(b.contract.at(-1)).toMatchObject({ close: '94000.00' });
      // the pushes: the quotes' ticker and kline of the contract listing and the contract ticker carry the same
      await new Promise((r) => setTimeout(r, 1200));
      const ticker = pushed
        .filter((u): u is Extract<MarketUpdate, { kind: 'ticker' }> => u.kind === 'ticker' && u.type === 'CONTRACT' && u.symbol === SYMBOL)
        .at(-1);
      expect(ticker && ofPair(ticker.pair)).toEqual(ofMarket(tickers.at(-1)!));
      expect(ofMarket(tickers.at(-1)!).last).toBe('94000.00');
      const kline = pushed
        .filter((u): u is Extract<MarketUpdate, { kind: 'kline' }> => u.kind === 'kline' && u.type === 'CONTRACT' && u.symbol === SYMBOL && u.period === '1min')
        .at(-1);
      expect(kline?.bar).toEqual(b.contract.at(-1));
      beforeRestart = v.market;
    } finally {
      off();
      offContract();
    }
  });

  it('after a restart (engine from the journal, bars from the database) the screens still agree', async () => {
    await t.ctx.perpMarket.flush();
    await t.ctx.marketData.flush();
    await t.ctx.host.projected();
    await t.close();
    t = await openTestApp(dataDir);
    const v = await views(t.app);
    expect(v.raw.lastPrice).toBe('94000.00');
    expect(v.list).toEqual(v.market);
    expect(v.detail).toEqual(v.market);
    expect(v.market.high).toBe(beforeRestart.high);
    // the window may have moved by a minute or two of fake history (3 BTC each) since
    expect(Math.abs(Number(v.market.volume) - Number(beforeRestart.volume))).toBeLessThanOrEqual(6.5);
    expect(Number(v.market.volume)).toBeGreaterThan(3 * 1000);
    const b = await bars(t.app, 1500);
    expect(b.contract.length).toBeGreaterThanOrEqual(1499);
    expect(b.quotes).toEqual(b.contract);
  });
});
