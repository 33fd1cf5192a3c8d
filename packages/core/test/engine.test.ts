// Proves the engine-level rules: asset/market configuration checks, deposits and transfers
// through the ledger, idempotency keys (also across snapshot/restore), snapshot/restore/state
// hash, and the lossless journal encoding of commands.
import { describe, expect, it } from 'vitest';
import { parseCommand, serializeCommand } from '../src/codec';
import { Engine } from '../src/engine';
import type { Command } from '../src/types';
import { btcUsdt, COIN, engineWithMarket, fund, limit, nextTs, ok, PX } from './fixtures';

describe('configuration', () => {
  it('addAsset rejects duplicates and bad scales', () => {
    const e = new Engine();
    ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'BTC', scale: 8 } });
    expect(e.execute({ type: 'addAsset', ts: nextTs(), asset: { code: 'BTC', scale: 6 } }).code).toBe('asset_exists');
    expect(e.execute({ type: 'addAsset', ts: nextTs(), asset: { code: 'X', scale: 2.5 } }).code).toBe('invalid_config');
    expect(e.execute({ type: 'addAsset', ts: nextTs(), asset: { code: '', scale: 2 } }).code).toBe('invalid_config');
    expect(e.assets()).toEqual([{ code: 'BTC', scale: 8 }]);
  });

  it('addMarket checks existence, config shape, assets and scales in precedence order', () => {
    const e = new Engine();
    ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'BTC', scale: 8 } });
    ok(e, { type: 'addAsset', ts: nextTs(), asset: { code: 'USDT', scale: 6 } });
    const add = (m: Partial<typeof btcUsdt>) => e.execute({ type: 'addMarket', ts: nextTs(), market: { ...btcUsdt, ...m } }).code;
    expect(add({ base: 'ETH' })).toBe('asset_not_found');
    expect(add({ base: 'ETH', tickSize: 0n })).toBe('invalid_config'); // invalid_config precedes asset_not_found
    expect(add({ priceDecimals: 2, qtyDecimals: 6 })).toBe('invalid_config'); // 2 + 6 > USDT scale 6
    expect(add({ qtyDecimals: 9, priceDecimals: 0 })).toBe('invalid_config'); // qty decimals > BTC scale... and quote
    expect(add({ makerFeePpm: 1_000_001 })).toBe('invalid_config');
    expect(add({ priceDecimals: 2, qtyDecimals: 4 })).toBe('ok');
    expect(add({ priceDecimals: 2, qtyDecimals: 4 })).toBe('market_exists');
    expect(e.market('BTC/USDT')).toMatchObject({ priceDecimals: 2, qtyDecimals: 4, status: 'TRADING' });
    expect(e.execute({ type: 'setMarketStatus', ts: nextTs(), symbol: 'NOPE', status: 'HALTED' }).code).toBe('market_not_found');
  });
});

describe('deposits and transfers', () => {
  it('a deposit is a posting from a system account; totals stay zero', () => {
    const e = engineWithMarket();
    const r = ok(e, { type: 'deposit', ts: nextTs(), userId: 'u1', asset: 'USDT', account: 'ASSETS', amount: 5n * COIN, from: '@chain' });
    expect(r.events).toEqual([
      expect.objectContaining({ type: 'balanceChanged', owner: '@chain', account: 'SYSTEM', asset: 'USDT', available: -5n * COIN, frozen: 0n }),
      expect.objectContaining({ type: 'balanceChanged', owner: 'u1', account: 'ASSETS', asset: 'USDT', available: 5n * COIN, frozen: 0n }),
    ]);
    expect(e.assetTotals()).toEqual(
      new Map([
        ['USDT', 0n],
        ['BTC', 0n],
      ]),
    );
    expect(e.execute({ type: 'deposit', ts: nextTs(), userId: 'u1', asset: 'DOGE', account: 'SPOT', amount: 1n, from: '@chain' }).code).toBe('asset_not_found');
    expect(e.execute({ type: 'deposit', ts: nextTs(), userId: 'u1', asset: 'USDT', account: 'SPOT', amount: 0n, from: '@chain' }).code).toBe('amount_invalid');
  });

  it('transfer moves available funds between a user own accounts', () => {
    const e = engineWithMarket();
    ok(e, { type: 'deposit', ts: nextTs(), userId: 'u1', asset: 'USDT', account: 'ASSETS', amount: 5n * COIN, from: '@faucet' });
    const t = (amount: bigint, from: 'ASSETS' | 'SPOT' = 'ASSETS', to: 'SPOT' | 'ASSETS' = 'SPOT'): Command => ({
      type: 'transfer',
      ts: nextTs(),
      userId: 'u1',
      asset: 'USDT',
      from,
      to,
      amount,
    });
    expect(e.execute(t(-1n)).code).toBe('amount_invalid');
    expect(e.execute(t(1n, 'ASSETS', 'ASSETS')).code).toBe('same_account');
    expect(e.execute(t(6n * COIN)).code).toBe('insufficient_balance');
    ok(e, t(2n * COIN));
    expect(e.balance('u1', 'ASSETS', 'USDT')).toEqual({ available: 3n * COIN, frozen: 0n });
    expect(e.balance('u1', 'SPOT', 'USDT')).toEqual({ available: 2n * COIN, frozen: 0n });
    expect(e.balancesOf('u1')).toEqual(
      new Map([
        ['ASSETS', new Map([['USDT', { available: 3n * COIN, frozen: 0n }]])],
        ['SPOT', new Map([['USDT', { available: 2n * COIN, frozen: 0n }]])],
      ]),
    );
  });
});

describe('idempotency keys', () => {
  it('a retried placeOrder returns the first code and the current order, changing nothing (also after restore)', () => {
    const e = engineWithMarket();
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    fund(e, 'alice', 'BTC', COIN);
    const first = ok(e, limit('bob', 'BUY', 100n * PX, 1000n, 'GTC', { clientOrderId: 'c-1' }));
    ok(e, limit('alice', 'SELL', 100n * PX, 400n)); // partially fills c-1
    const h = e.stateHash();
    const retry = e.execute(limit('bob', 'BUY', 100n * PX, 1000n, 'GTC', { clientOrderId: 'c-1' }));
    expect(retry.code).toBe(first.code);
    expect(retry.events).toEqual([]);
    expect(retry.order).toMatchObject({ orderId: first.order?.orderId, status: 'PARTIALLY_FILLED', filledQty: 400n });
    expect(e.stateHash()).toBe(h);
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    const retry2 = r.execute(limit('bob', 'BUY', 999n * PX, 1n, 'GTC', { clientOrderId: 'c-1' }));
    expect(retry2).toEqual(retry);
    expect(r.stateHash()).toBe(h);
    // cancel by client order id
    const c = ok(r, { type: 'cancelOrder', ts: nextTs(), userId: 'bob', clientOrderId: 'c-1' });
    expect(c.order).toMatchObject({ status: 'CANCELED' });
    expect(r.balance('bob', 'SPOT', 'USDT')).toEqual({ available: 1_000n * COIN - 400n * 100n * PX, frozen: 0n });
    // the same client id of another user is a different key
    expect(e.execute(limit('alice', 'SELL', 200n * PX, 1n, 'GTC', { clientOrderId: 'c-1' })).order?.orderId).not.toBe(first.order?.orderId);
  });

  it('a rejected order does not take the client id', () => {
    const e = engineWithMarket();
    expect(e.execute(limit('bob', 'BUY', 100n * PX, 1000n, 'GTC', { clientOrderId: 'k' })).code).toBe('insufficient_balance');
    fund(e, 'bob', 'USDT', 1_000n * COIN);
    expect(ok(e, limit('bob', 'BUY', 100n * PX, 1000n, 'GTC', { clientOrderId: 'k' })).order?.status).toBe('NEW');
  });

  it('deposit ref and transfer clientId apply once (also after restore)', () => {
    const e = engineWithMarket();
    const dep: Command = { type: 'deposit', ts: nextTs(), userId: 'u', asset: 'USDT', account: 'ASSETS', amount: 7n, from: '@chain', ref: 'tx:1' };
    const tr: Command = { type: 'transfer', ts: nextTs(), userId: 'u', asset: 'USDT', from: 'ASSETS', to: 'SPOT', amount: 3n, clientId: 't1' };
    ok(e, dep);
    ok(e, tr);
    expect(e.execute(dep)).toEqual({ code: 'ok', events: [] });
    expect(e.execute(tr)).toEqual({ code: 'ok', events: [] });
    const r = Engine.restore(e.snapshot());
    expect(r.execute(dep)).toEqual({ code: 'ok', events: [] });
    expect(r.execute(tr)).toEqual({ code: 'ok', events: [] });
    expect(r.balance('u', 'ASSETS', 'USDT')).toEqual({ available: 4n, frozen: 0n });
    expect(r.balance('u', 'SPOT', 'USDT')).toEqual({ available: 3n, frozen: 0n });
  });
});

describe('idempotency window (independent of order retention)', () => {
  const H = 3_600_000;
  const T0 = 1_800_000_000_000;
  const place = (ts: number, cid: string, price = 10n * PX): Command => ({
    type: 'placeOrder',
    ts,
    userId: 'b',
    symbol: 'BTC/USDT',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price,
    quantity: 100n,
    clientOrderId: cid,
  });
  const cancel = (ts: number, orderId: string): Command => ({ type: 'cancelOrder', ts, userId: 'b', orderId });
  function setup(): Engine {
    const e = engineWithMarket({}, { closedOrderRetention: 1, idempotencyWindowMs: 24 * H });
    ok(e, { type: 'deposit', ts: T0, userId: 'b', asset: 'USDT', account: 'SPOT', amount: 1_000n * COIN, from: '@faucet' });
    return e;
  }

  it('a retry after the order was evicted returns the first order id, no events, and changes nothing', () => {
    const e = setup();
    const first = ok(e, place(T0 + 1, 'a'));
    expect(first.duplicateOfOrderId).toBeUndefined();
    const id = first.order!.orderId;
    ok(e, cancel(T0 + 2, id));
    ok(e, place(T0 + 3, 'b'));
    ok(e, cancel(T0 + 4, '2')); // order 2 ends: order 1 is no longer retained
    expect(e.order(id)).toBeUndefined();
    const h = e.stateHash();
    const retry = e.execute(place(T0 + 23 * H, 'a', 11n * PX));
    expect(retry).toEqual({ code: 'ok', events: [], duplicateOfOrderId: id });
    expect(e.stateHash()).toBe(h);
    expect(e.balance('b', 'SPOT', 'USDT')).toEqual({ available: 1_000n * COIN, frozen: 0n });
    // still retained: the view comes along with the id
    expect(e.execute(place(T0 + 5, 'b'))).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: '2', order: { orderId: '2', status: 'CANCELED' } });
    expect(e.stateHash()).toBe(h);
  });

  it('a key expires after the window of command time (then the client id is free again)', () => {
    const e = setup();
    ok(e, place(T0 + 1, 'a'));
    ok(e, cancel(T0 + 2, '1'));
    ok(e, place(T0 + 3, 'x'));
    ok(e, cancel(T0 + 4, '2')); // order 1 evicted
    // the last ms of the window still knows the key; from T0 + 1 + 24 h on it is gone
    expect(e.execute(place(T0 + 1 + 24 * H - 1, 'a')).duplicateOfOrderId).toBe('1');
    const again = ok(e, place(T0 + 1 + 24 * H, 'a'));
    expect(again.duplicateOfOrderId).toBeUndefined();
    expect(again.order).toMatchObject({ orderId: '3', clientOrderId: 'a', status: 'NEW' });
    // that accepted command aged out the key of order 1 (not yet the one of order 2); the new key names order 3
    expect(e.snapshot().idempotencyKeys).toEqual([
      [0, 'b', 'x', T0 + 3, 2],
      [0, 'b', 'a', T0 + 1 + 24 * H, 3],
    ]);
    expect(e.execute(place(T0 + 2 + 24 * H, 'a')).duplicateOfOrderId).toBe('3');
  });

  it('deposit refs and transfer ids expire after the window too; rejected commands take no key', () => {
    const e = setup();
    const dep = (ts: number): Command => ({ type: 'deposit', ts, userId: 'u', asset: 'USDT', account: 'ASSETS', amount: 7n, from: '@chain', ref: 'tx' });
    const tr = (ts: number, amount: bigint): Command => ({
      type: 'transfer',
      ts,
      userId: 'u',
      asset: 'USDT',
      from: 'ASSETS',
      to: 'SPOT',
      amount,
      clientId: 't',
    });
    ok(e, dep(T0));
    expect(e.execute(tr(T0, 8n)).code).toBe('insufficient_balance'); // rejected: the key stays free
    ok(e, tr(T0, 3n));
    expect(e.execute(dep(T0 + 24 * H - 1))).toEqual({ code: 'ok', events: [] });
    expect(e.execute(tr(T0 + 24 * H - 1, 3n))).toEqual({ code: 'ok', events: [] });
    ok(e, dep(T0 + 24 * H));
    ok(e, tr(T0 + 24 * H, 3n));
    expect(e.balance('u', 'ASSETS', 'USDT')).toEqual({ available: 8n, frozen: 0n });
    expect(e.balance('u', 'SPOT', 'USDT')).toEqual({ available: 6n, frozen: 0n });
  });

  it('snapshot/restore keeps the keys, their times and the window', () => {
    const e = setup();
    ok(e, place(T0 + 1, 'a'));
    ok(e, cancel(T0 + 2, '1'));
    ok(e, place(T0 + 3, 'x'));
    ok(e, cancel(T0 + 4, '2'));
    ok(e, { type: 'deposit', ts: T0 + 5, userId: 'u', asset: 'USDT', account: 'ASSETS', amount: 7n, from: '@chain', ref: 'tx' });
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(r.stateHash()).toBe(e.stateHash());
    expect(r.snapshot().idempotencyWindowMs).toBe(24 * H);
    for (const x of [e, r]) {
      expect(x.execute(place(T0 + 6, 'a'))).toEqual({ code: 'ok', events: [], duplicateOfOrderId: '1' });
      expect(x.execute(place(T0 + 1 + 24 * H, 'a')).order?.orderId).toBe('3');
    }
    expect(r.stateHash()).toBe(e.stateHash());
  });

  it('restores a snapshot written before the key window (deposit refs and transfer ids as pairs)', () => {
    const e = setup();
    ok(e, place(T0 + 4, 'open')); // its time is the latest order time the old snapshot has
    ok(e, { type: 'deposit', ts: T0 + 5, userId: 'u', asset: 'USDT', account: 'ASSETS', amount: 7n, from: '@chain', ref: 'tx' });
    const { idempotencyKeys: _k, idempotencyWindowMs: _w, ...old } = JSON.parse(JSON.stringify(e.snapshot()));
    const r = Engine.restore({ ...old, depositRefs: [['u', 'tx']], transferIds: [['u', 't']] });
    expect(r.execute({ type: 'deposit', ts: T0 + 6, userId: 'u', asset: 'USDT', account: 'ASSETS', amount: 7n, from: '@chain', ref: 'tx' })).toEqual({
      code: 'ok',
      events: [],
    });
    expect(r.balance('u', 'ASSETS', 'USDT')).toEqual({ available: 7n, frozen: 0n });
    // the legacy keys count from that time (T0 + 4) and the open order keeps its client id
    expect(r.snapshot().idempotencyKeys).toEqual([
      [1, 'u', 'tx', T0 + 4, 0],
      [2, 'u', 't', T0 + 4, 0],
    ]);
    expect(r.execute(place(T0 + 7, 'open'))).toMatchObject({ code: 'ok', events: [], duplicateOfOrderId: '1' });
  });
});

describe('snapshot, restore, state hash', () => {
  it('restore(snapshot()) has the same hash and continues identically, with either book', () => {
    const e = engineWithMarket();
    fund(e, 'a', 'BTC', COIN);
    fund(e, 'b', 'USDT', 100_000n * COIN);
    ok(e, limit('a', 'SELL', 30_000n * PX, 300n));
    ok(e, limit('a', 'SELL', 30_000n * PX, 200n));
    ok(e, limit('a', 'SELL', 30_100n * PX, 200n));
    ok(e, limit('b', 'BUY', 29_000n * PX, 200n));
    ok(e, limit('b', 'BUY', 30_000n * PX, 100n));
    const snap = JSON.parse(JSON.stringify(e.snapshot()));
    for (const book of ['fast', 'naive'] as const) {
      const r = Engine.restore(snap, { book });
      expect(r.stateHash()).toBe(e.stateHash());
      const cmd = limit('b', 'BUY', 30_100n * PX, 600n);
      expect(r.execute(cmd)).toEqual(engineCopy(e).execute(cmd));
    }
    expect(e.stateHash()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('different states give different hashes', () => {
    const e1 = engineWithMarket();
    const e2 = engineWithMarket();
    expect(e1.stateHash()).toBe(e2.stateHash());
    fund(e1, 'a', 'BTC', 1n);
    expect(e1.stateHash()).not.toBe(e2.stateHash());
  });
});

describe('retention of ended orders', () => {
  it('keeps the last N ended orders (and their client ids), forgets older ones, and restores the same window', () => {
    // a window of 0 ms: keys expire at once, so only the retained orders recognise client ids here
    const e = engineWithMarket({}, { closedOrderRetention: 2, idempotencyWindowMs: 0 });
    fund(e, 'b', 'USDT', 1_000n * COIN);
    for (let i = 0; i < 3; i++) {
      ok(e, limit('b', 'BUY', 10n * PX, 100n, 'GTC', { clientOrderId: `k${i}` }));
      ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'b', orderId: `${i + 1}` });
    }
    ok(e, limit('b', 'BUY', 10n * PX, 100n, 'GTC', { clientOrderId: 'open' })); // open orders are always kept
    expect(e.order('1')).toBeUndefined();
    expect(e.order('2')).toMatchObject({ status: 'CANCELED' });
    expect(e.order('3')).toMatchObject({ status: 'CANCELED' });
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(r.stateHash()).toBe(e.stateHash());
    const retryK1 = limit('b', 'BUY', 10n * PX, 100n, 'GTC', { clientOrderId: 'k1' });
    const retryK0 = limit('b', 'BUY', 10n * PX, 100n, 'GTC', { clientOrderId: 'k0' });
    for (const x of [e, r]) {
      // k1 is still known: a retry returns it; k0 was forgotten: a retry is a new order
      expect(x.execute(retryK1).order).toMatchObject({ orderId: '2', status: 'CANCELED' });
      expect(x.execute(retryK0).order).toMatchObject({ orderId: '5', status: 'NEW' });
      ok(x, { type: 'cancelOrder', ts: 1, userId: 'b', clientOrderId: 'k0' }); // ends order 5, forgets order 2
      expect(x.order('2')).toBeUndefined();
    }
    expect(r.stateHash()).toBe(e.stateHash());
  });
});

describe('journal encoding', () => {
  it('serializeCommand/parseCommand round-trips bigints exactly', () => {
    const cmds: Command[] = [
      limit('u', 'BUY', 123_456_789_012_345_678_901_234_567_890n, 1n, 'GTC', { clientOrderId: '{"$n":"1"}' }),
      { type: 'addMarket', ts: 5, market: btcUsdt },
      { type: 'deposit', ts: 6, userId: 'u', asset: 'USDT', account: 'SPOT', amount: -0n, from: '@faucet' },
    ];
    for (const c of cmds) {
      const text = serializeCommand(c);
      expect(text).not.toContain('\n');
      expect(parseCommand(text)).toEqual(c);
    }
    expect(() => parseCommand('{"type":"x"}')).toThrow(SyntaxError);
    expect(() => parseCommand('{"type":"deposit","ts":1,"amount":{"$n":"1.5"}}')).toThrow(SyntaxError);
  });
});

function engineCopy(e: Engine): Engine {
  return Engine.restore(e.snapshot());
}
