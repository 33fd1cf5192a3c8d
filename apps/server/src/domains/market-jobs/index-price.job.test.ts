/**
 * Proves the index price of a contract from its sources (reference path weight 2, last trade weight 1, mid weight
 * 1) with exact integers: stale trades are dropped, outliers are clamped to the median +-3%, a one-sided book
 * gives no mid; and that the job hands each contract listing's index to market data as a decimal string.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineEvent } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { indexPriceOf, indexSources, startIndexJob, type IndexListing } from './index-price.job';
import { createIndexComponentsBoard } from '../index-price/index-components';
import type { ReferencePath, ReferencePaths } from '../market-data/price-source';

const NOW = 1_800_000_000_000;

describe('index price sources', () => {
  it('weights reference 2, last trade 1, mid 1', () => {
    // (2*10000 + 10030 + 9990) / 4 = 10005 (median 10000, all inside +-3%)
    expect(indexPriceOf({ now: NOW, reference: 10_000n, lastTrade: { price: 10_030n, ts: NOW - 1_000 }, bestBid: 9_980n, bestAsk: 10_000n })).toBe(10_005n);
    expect(indexSources({ now: NOW, reference: 10_000n, lastTrade: null, bestBid: 9_980n, bestAsk: 9_981n })).toEqual([
      { price: 10_000n, weight: 2, ts: NOW },
      { price: 9_981n, weight: 1, ts: NOW }, // mid rounded half up
    ]);
  });
  it('drops a last trade older than 30 s', () => {
    const stale = { price: 20_000n, ts: NOW - 30_001 };
    expect(indexPriceOf({ now: NOW, reference: 10_000n, lastTrade: stale, bestBid: null, bestAsk: null })).toBe(10_000n);
    const fresh = { price: 10_300n, ts: NOW - 30_000 };
    // median of (10000, 10300) = 10150; both within +-3% -> (2*10000 + 10300) / 3 = 10100
    expect(indexPriceOf({ now: NOW, reference: 10_000n, lastTrade: fresh, bestBid: null, bestAsk: null })).toBe(10_100n);
  });
  it('clamps an outlier to the median +-3%', () => {
    // sources 10000 (w2), 20000 (w1), mid 10010 (w1): median 10010; 20000 clamps to floor(10010*1.03) = 10310
    // (2*10000 + 10310 + 10010) / 4 = 10080
    expect(indexPriceOf({ now: NOW, reference: 10_000n, lastTrade: { price: 20_000n, ts: NOW }, bestBid: 10_000n, bestAsk: 10_020n })).toBe(10_080n);
  });
  it('ignores a one-sided or crossed book and gives null without sources', () => {
    expect(indexSources({ now: NOW, reference: null, lastTrade: null, bestBid: 10n, bestAsk: null })).toEqual([]);
    expect(indexSources({ now: NOW, reference: null, lastTrade: null, bestBid: 10n, bestAsk: 10n })).toEqual([]);
    expect(indexPriceOf({ now: NOW, reference: null, lastTrade: null, bestBid: null, bestAsk: null })).toBeNull();
  });
});

describe('startIndexJob', () => {
  it('sets each contract listing index from the reference, our last trade and our mid', () => {
    const listeners: Array<(events: EngineEvent[]) => void> = [];
    const host = {
      engine: {
        market: (s: string) => (s === 'BTC/USDT' ? { priceDecimals: 2 } : undefined),
        depth: () => ({ bids: [{ price: 9_999_000n, quantity: 1n }], asks: [{ price: 10_001_000n, quantity: 1n }] }),
      },
      onEvents(l: (events: EngineEvent[]) => void) {
        listeners.push(l);
        return () => listeners.splice(listeners.indexOf(l), 1);
      },
    } as unknown as EnginePort;
    const btc: ReferencePath = { base: 'BTC', quote: 'USDT', provenance: { demoData: false, source: 't' }, priceAt: () => '100000.004', bars: () => [] };
    const paths: ReferencePaths = { get: (b) => (b === 'BTC' ? btc : undefined), all: () => [btc] };
    const listings: IndexListing[] = [
      { symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 },
      { symbol: 'XYZ/USDT', base: 'XYZ', quote: 'USDT', priceDecimals: 2 },
    ];
    const set: Array<[string, string, number | undefined]> = [];
    const sink = { listings: () => listings, setIndexPrice: (s: string, p: string, ts?: number) => void set.push([s, p, ts]) };
    const board = createIndexComponentsBoard();
    const job = startIndexJob({ host, sink, paths, log: console as unknown as FastifyBaseLogger, now: () => NOW, intervalMs: 3_600_000, board });
    // reference 100000.00 (w2) + mid 100000.00 (w1) -> 100000.00; XYZ has no source at all
    expect(set).toEqual([['BTC/USDT', '100000.00', NOW]]);
    expect(board.get('BTC/USDT')).toEqual({
      symbol: 'BTC/USDT',
      mode: 'replay',
      time: NOW,
      price: '100000.00',
      stale: false,
      reason: null,
      components: [
        { source: 'reference', price: '100000.00', weight: '0.66666666', status: 'used' },
        { source: 'mid', price: '100000.00', weight: '0.33333333', status: 'used' },
      ],
    });
    for (const l of listeners) l([{ type: 'trade', ts: NOW - 500, symbol: 'BTC/USDT', price: 10_004_000n } as EngineEvent]);
    job.tick();
    // (2*10000000 + 10004000 + 10000000) / 4 = 10001000 -> "100010.00"
    expect(set[1]).toEqual(['BTC/USDT', '100010.00', NOW]);
    expect(board.get('BTC/USDT')?.components.map((c) => [c.source, c.price, c.weight, c.status])).toEqual([
      ['reference', '100000.00', '0.5', 'used'],
      ['lastTrade', '100040.00', '0.25', 'used'],
      ['mid', '100000.00', '0.25', 'used'],
    ]);
    // a reference 10% above the median (100040.00) is clamped to the median +3%, its weight unchanged
    btc.priceAt = () => '110000';
    job.tick();
    expect(board.get('BTC/USDT')?.components.map((c) => [c.source, c.weight, c.status])).toEqual([
      ['reference', '0.5', 'clamped'],
      ['lastTrade', '0.25', 'used'],
      ['mid', '0.25', 'used'],
    ]);
    // a last trade 31 s old is dropped (stale, weight 0)
    for (const l of listeners) l([{ type: 'trade', ts: NOW - 31_000, symbol: 'BTC/USDT', price: 10_004_000n } as EngineEvent]);
    btc.priceAt = () => '100000';
    job.tick();
    expect(board.get('BTC/USDT')?.components.map((c) => [c.source, c.weight, c.status])).toEqual([
      ['reference', '0.66666666', 'used'],
      ['lastTrade', '0', 'stale'],
      ['mid', '0.33333333', 'used'],
    ]);
    job.stop();
    expect(listeners).toHaveLength(0);
  });
  it('takes the live index when it answers, and publishes nothing while it is stale but hands the mark price job a stale tick', () => {
    const host = {
      engine: { market: () => ({ priceDecimals: 2 }), depth: () => ({ bids: [], asks: [] }) },
      onEvents: () => () => undefined,
    } as unknown as EnginePort;
    const btc: ReferencePath = { base: 'BTC', quote: 'USDT', provenance: { demoData: false, source: 't' }, priceAt: () => '100000.00', bars: () => [] };
    const paths: ReferencePaths = { get: () => btc, all: () => [btc] };
    const listings: IndexListing[] = [{ symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 }];
    const set: Array<[string, string]> = [];
    const marks: Array<[bigint, boolean]> = [];
    let live = { price: '61686.01' as string | null, stale: false };
    const job = startIndexJob({
      host,
      sink: { listings: () => listings, setIndexPrice: (s: string, p: string) => void set.push([s, p]) },
      paths,
      log: console as unknown as FastifyBaseLogger,
      now: () => NOW,
      intervalMs: 3_600_000,
      onIndex: (_l, index, _ts, stale = false) => void marks.push([index, stale]),
      live: () => live,
    });
    live = { price: '61700.00', stale: true };
    job.tick();
    live = { price: null, stale: true };
    job.tick();
    live = { price: '61702.50', stale: false };
    job.tick();
    expect(set).toEqual([
      ['BTC/USDT', '61686.01'],
      ['BTC/USDT', '61702.50'],
    ]);
    // the stale answers go to the mark price job flagged stale (their price informative, 0n without one)
    expect(marks).toEqual([
      [6_168_601n, false],
      [6_170_000n, true],
      [0n, true],
      [6_170_250n, false],
    ]);
    job.stop();
  });
});
