/**
 * Proves the test-only reference price control: in demo mode and from loopback it pins the contract's
 * reference so the index price job takes it as the index (and hands it to the mark price hook) at its next tick;
 * a price of 0, one with more decimals than the market's, an unknown or spot-only pair are refused with a clear
 * error in the request's language; without demo mode the route answers 404 and from another address 403, and
 * nothing is pinned. The silence control (demo/contract/silenceIndexSources) makes the index job's tick stale with no
 * sources (its components all stale), the engine holds the mark and pauses the contract; speaking again resumes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { post } from '../member/member-test-app';
import { referenceOverridesOf } from '../market-jobs/reference-override';
import { startIndexJob, type IndexListing } from '../market-jobs/index-price.job';
import { createMarkPriceTicker } from '../market-jobs/perp-ticks.job';
import { createIndexComponentsBoard } from '../index-price/index-components';
import type { ReferencePaths } from '../market-data/price-source';
import { pinnedPriceUnits } from './demo-contract.routes';

const PATH = 'demo/contract/setReferencePrice';
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo/contract/setReferencePrice', () => {
  it('pins the reference: the index job takes it as the index at its next tick', async () => {
    const r = await post(t.app, PATH, { symbol: 'BTC/USDT', price: '81234.5' });
    expect(r.json()).toMatchObject({ status: 'SUCCEED', result: { symbol: 'BTC/USDT', price: '81234.50' } });
    const overrides = referenceOverridesOf(t.app.ctx);
    expect(overrides.get('BTC')).toBe('81234.50');
    const seen: Array<[string, bigint]> = [];
    const set: Array<[string, string]> = [];
    const noPaths: ReferencePaths = { get: () => undefined, all: () => [] };
    const job = startIndexJob({
      host: t.app.ctx.host,
      sink: { listings: () => [{ symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 }], setIndexPrice: (s, p) => set.push([s, p]) },
      paths: noPaths,
      log: t.app.log,
      intervalMs: 3_600_000,
      pinned: (base, quote) => (quote === 'USDT' ? overrides.get(base) : undefined),
      onIndex: (l: IndexListing, index: bigint) => seen.push([l.symbol, index]),
    });
    job.stop();
    expect(set).toEqual([['BTC/USDT', '81234.50']]);
    expect(seen).toEqual([['BTC/USDT', 8_123_450n]]);
  });

  it('refuses a zero price, too many decimals, an unknown or spot-only pair, in the request language', async () => {
    const zero = await post(t.app, PATH, { symbol: 'BTC/USDT', price: '0' }, { lang: 'zh' });
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toMatchObject({ status: 'FAILED', errorCode: 'price_required', errorMessage: '请输入价格' });
    const fine = await post(t.app, PATH, { symbol: 'BTC/USDT', price: '1.001' });
    expect(fine.json()).toMatchObject({ errorCode: 'price_not_on_tick' });
    expect((await post(t.app, PATH, { symbol: 'NOPE/USDT', price: '1' })).json()).toMatchObject({ errorCode: 'market_not_found' });
    expect((await post(t.app, PATH, { symbol: 'ADA/USDT', price: '1' })).json()).toMatchObject({ errorCode: 'market_not_found' });
    expect(referenceOverridesOf(t.app.ctx).get('ADA')).toBeUndefined();
    const huge = await post(t.app, PATH, { symbol: 'BTC/USDT', price: '9223372036854775808' });
    expect(huge.json()).toMatchObject({ status: 'FAILED', errorCode: 'validation_failed' });
    expect(pinnedPriceUnits('12.30', 2)).toBe(1230n);
    expect(pinnedPriceUnits('10000000000', 2)).toBe(1_000_000_000_000n);
    expect(pinnedPriceUnits('7', 0)).toBe(7n);
  });

  it('answers 403 off loopback and 404 without demo mode', async () => {
    const far = await post(t.app, PATH, { symbol: 'ETH/USDT', price: '1' }, { ip: '10.0.0.9' });
    expect(far.statusCode).toBe(403);
    expect(referenceOverridesOf(t.app.ctx).get('ETH')).toBeUndefined();
    const off = await makeTestApp({ demoMode: false });
    try {
      const r = await post(off.app, PATH, { symbol: 'BTC/USDT', price: '1' });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ status: 'FAILED', errorCode: 'not_found' });
      expect(referenceOverridesOf(off.app.ctx).get('BTC')).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});

describe('demo/contract/silenceIndexSources', () => {
  const SILENCE = 'demo/contract/silenceIndexSources';
  it('every source of the contract stops: the index is stale with no sources, the contract paused; speaking again resumes it', async () => {
    const overrides = referenceOverridesOf(t.app.ctx);
    overrides.clear('BTC');
    const board = createIndexComponentsBoard();
    const marks = createMarkPriceTicker({ host: t.app.ctx.host, log: t.app.log });
    const listing: IndexListing = { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 };
    // a reference path answering 80,000 so the replayed index has sources
    const path = { base: 'BTC', quote: 'USDT', priceAt: () => '80000', barsBetween: () => [] };
    const paths = { get: (b: string) => (b === 'BTC' ? path : undefined), all: () => [path] } as unknown as ReferencePaths;
    const job = startIndexJob({
      host: t.app.ctx.host,
      sink: { listings: () => [listing], setIndexPrice: () => undefined },
      paths,
      log: t.app.log,
      intervalMs: 3_600_000,
      silenced: (base, quote) => quote === 'USDT' && overrides.silenced(base),
      onIndex: marks.onIndex,
      board,
    });
    try {
      await marks.drain();
      const state = () => t.app.ctx.host.engine.perpMarkState('BTC/USDT');
      expect(state()?.indexStale).toBe(false);
      const mark = state()?.markPrice;
      expect(mark).not.toBeNull();
      const r = await post(t.app, SILENCE, { symbol: 'BTC/USDT', silent: true });
      expect(r.json()).toMatchObject({ status: 'SUCCEED', result: { symbol: 'BTC/USDT', silent: true } });
      job.tick();
      await marks.drain();
      expect(state()).toMatchObject({ indexStale: true, markPrice: mark });
      expect(board.get('BTC/USDT')).toMatchObject({ stale: true, reason: 'no_sources', price: '' });
      expect(board.get('BTC/USDT')!.components.every((c) => c.status === 'stale' && c.weight === '0')).toBe(true);
      expect((await post(t.app, SILENCE, { symbol: 'BTC/USDT', silent: false })).json()).toMatchObject({ result: { silent: false } });
      job.tick();
      await marks.drain();
      expect(state()?.indexStale).toBe(false);
      expect(board.get('BTC/USDT')).toMatchObject({ stale: false, mode: 'replay' });
      // refused: an unknown or spot-only pair, a missing flag; nothing silenced
      expect((await post(t.app, SILENCE, { symbol: 'ADA/USDT', silent: true })).json()).toMatchObject({ errorCode: 'market_not_found' });
      expect((await post(t.app, SILENCE, { symbol: 'BTC/USDT' })).statusCode).toBe(400);
      expect((await post(t.app, SILENCE, { symbol: 'BTC/USDT', silent: true }, { ip: '10.0.0.9' })).statusCode).toBe(403);
      expect(overrides.silenced('BTC') || overrides.silenced('ADA')).toBe(false);
    } finally {
      job.stop();
    }
  });
});
