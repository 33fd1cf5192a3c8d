// Proves the ledger's double-entry rules: every posting moves an amount between two buckets, so
// per-asset totals stay 0n; user buckets never go negative (a programmer error that throws);
// system accounts may; holds and releases move between the buckets of one account; changed
// accounts are collected once per command in first-touch order.
import { describe, expect, it } from 'vitest';
import { isSystemOwner, Ledger } from './ledger';

describe('Ledger', () => {
  it('deposit, hold, fee and release keep every asset summing to zero', () => {
    const l = new Ledger();
    l.beginCommand();
    const faucet = l.account('@faucet', 'SYSTEM', 'USDT');
    const alice = l.account('alice', 'SPOT', 'USDT');
    const fee = l.account('@fee', 'SYSTEM', 'USDT');
    l.post(faucet, 'available', alice, 'available', 1_000n);
    l.hold(alice, 300n);
    l.post(alice, 'frozen', fee, 'available', 5n);
    l.release(alice, 295n);
    expect(l.balance('alice', 'SPOT', 'USDT')).toEqual({ available: 995n, frozen: 0n });
    expect(l.balance('@faucet', 'SYSTEM', 'USDT')).toEqual({ available: -1_000n, frozen: 0n });
    expect(l.balance('@fee', 'SYSTEM', 'USDT')).toEqual({ available: 5n, frozen: 0n });
    expect(l.assetTotals()).toEqual(new Map([['USDT', 0n]]));
    expect(l.touched.slice(0, l.touchedCount).map((a) => a.owner)).toEqual(['@faucet', 'alice', '@fee']);
    l.beginCommand();
    expect(l.touchedCount).toBe(0);
  });

  it('refuses to take a user bucket below zero, to post negative amounts or across assets', () => {
    const l = new Ledger();
    const a = l.account('a', 'SPOT', 'BTC');
    const b = l.account('b', 'SPOT', 'BTC');
    expect(() => l.post(a, 'available', b, 'available', 1n)).toThrow(/negative/);
    expect(() => l.hold(a, 1n)).toThrow(RangeError);
    expect(() => l.release(a, 1n)).toThrow(RangeError);
    expect(() => l.post(a, 'available', b, 'available', -1n)).toThrow(RangeError);
    expect(() => l.post(a, 'available', l.account('b', 'SPOT', 'ETH'), 'available', 0n)).not.toThrow(); // zero is a no-op
    expect(() => l.post(l.account('@chain', 'SYSTEM', 'BTC'), 'available', l.account('b', 'SPOT', 'ETH'), 'available', 1n)).toThrow(/different assets/);
    expect(l.balance('a', 'SPOT', 'BTC')).toEqual({ available: 0n, frozen: 0n });
  });

  it('balancesOf lists only non-zero balances', () => {
    const l = new Ledger();
    l.post(l.account('@chain', 'SYSTEM', 'ETH'), 'available', l.account('u', 'ASSETS', 'ETH'), 'available', 7n);
    l.account('u', 'SPOT', 'BTC');
    expect(l.balancesOf('u')).toEqual(new Map([['ASSETS', new Map([['ETH', { available: 7n, frozen: 0n }]])]]));
    expect(l.balancesOf('nobody')).toEqual(new Map());
    expect(isSystemOwner('@fee')).toBe(true);
    expect(isSystemOwner('fee')).toBe(false);
  });
});

describe('Ledger edges', () => {
  it('creates accounts on demand, finds only existing ones, and refuses an unknown kind', () => {
    const l = new Ledger();
    expect(l.find('u', 'SPOT', 'BTC')).toBeUndefined();
    const a = l.account('u', 'SPOT', 'BTC');
    expect(l.account('u', 'SPOT', 'BTC')).toBe(a);
    expect(l.find('u', 'SPOT', 'BTC')).toBe(a);
    expect(l.find('u', 'SPOT', 'ETH')).toBeUndefined();
    expect(l.find('u', 'ASSETS', 'BTC')).toBeUndefined();
    expect(l.find('v', 'SPOT', 'BTC')).toBeUndefined();
    for (const kind of ['ASSETS', 'SPOT', 'CONTRACT', 'OTC', 'SYSTEM'] as const) {
      const acc = l.account('k', kind, 'X');
      expect([acc.owner, acc.kind, acc.asset, acc.available, acc.frozen, acc.isSystem]).toEqual(['k', kind, 'X', 0n, 0n, kind === 'SYSTEM']);
      expect(l.find('k', kind, 'X')).toBe(acc);
    }
    expect(() => l.account('u', 'WALLET' as never, 'BTC')).toThrow(new RangeError('ledger: unknown account kind WALLET'));
    expect(l.find('u', 'WALLET' as never, 'BTC')).toBeUndefined();
  });

  it('post moves between any two buckets, also within one account, and touches each account once per command', () => {
    const l = new Ledger();
    l.beginCommand();
    const chain = l.account('@chain', 'SYSTEM', 'BTC');
    const a = l.account('a', 'SPOT', 'BTC');
    const b = l.account('b', 'SPOT', 'BTC');
    l.post(chain, 'available', a, 'available', 10n);
    l.post(a, 'available', a, 'frozen', 4n); // a hold written as a posting
    l.post(a, 'frozen', b, 'frozen', 3n);
    l.post(b, 'frozen', a, 'available', 1n);
    expect(l.balance('a', 'SPOT', 'BTC')).toEqual({ available: 7n, frozen: 1n });
    expect(l.balance('b', 'SPOT', 'BTC')).toEqual({ available: 0n, frozen: 2n });
    expect(l.balance('@chain', 'SYSTEM', 'BTC')).toEqual({ available: -10n, frozen: 0n });
    expect(l.touchedCount).toBe(3);
    expect(l.touched.slice(0, l.touchedCount)).toEqual([chain, a, b]);
    // a zero posting is a no-op and touches nothing
    l.beginCommand();
    l.post(a, 'available', b, 'available', 0n);
    l.hold(a, 0n);
    l.release(a, 0n);
    expect(l.touchedCount).toBe(0);
    // a system account's frozen bucket may go negative too
    l.post(chain, 'frozen', b, 'available', 5n);
    expect(l.balance('@chain', 'SYSTEM', 'BTC')).toEqual({ available: -10n, frozen: -5n });
    expect(l.touched.slice(0, l.touchedCount)).toEqual([chain, b]);
    expect(l.assetTotals()).toEqual(new Map([['BTC', 0n]]));
  });

  it('names the bucket that would go negative and the reason of every refusal', () => {
    const l = new Ledger();
    const a = l.account('a', 'SPOT', 'BTC');
    const b = l.account('b', 'SPOT', 'BTC');
    l.post(l.account('@faucet', 'SYSTEM', 'BTC'), 'available', a, 'available', 5n);
    expect(() => l.post(a, 'available', b, 'available', 6n)).toThrow(new Error('ledger: a/SPOT/BTC.available would go negative'));
    expect(() => l.post(a, 'frozen', b, 'available', 1n)).toThrow(new Error('ledger: a/SPOT/BTC.frozen would go negative'));
    expect(() => l.post(a, 'available', b, 'available', -1n)).toThrow(new RangeError('ledger: negative posting'));
    expect(() => l.hold(a, 6n)).toThrow(new RangeError('ledger: bad hold on a/SPOT/BTC'));
    expect(() => l.hold(a, -1n)).toThrow(new RangeError('ledger: bad hold on a/SPOT/BTC'));
    expect(() => l.release(a, 1n)).toThrow(new RangeError('ledger: bad release on a/SPOT/BTC'));
    l.hold(a, 5n);
    expect(() => l.release(a, -1n)).toThrow(new RangeError('ledger: bad release on a/SPOT/BTC'));
    expect(() => l.release(a, 6n)).toThrow(RangeError);
    // exactly everything is allowed (the checks are "below zero", not "zero")
    l.release(a, 5n);
    l.hold(a, 5n);
    l.post(a, 'frozen', b, 'available', 5n);
    l.post(b, 'available', a, 'available', 5n);
    expect(l.balance('a', 'SPOT', 'BTC')).toEqual({ available: 5n, frozen: 0n });
    expect(l.balance('b', 'SPOT', 'BTC')).toEqual({ available: 0n, frozen: 0n });
  });

  it('hold and release move between the buckets of one account; system accounts may go negative', () => {
    const l = new Ledger();
    l.beginCommand();
    const a = l.account('a', 'SPOT', 'USDT');
    l.post(l.account('@faucet', 'SYSTEM', 'USDT'), 'available', a, 'available', 100n);
    l.beginCommand();
    l.hold(a, 30n);
    expect(l.balance('a', 'SPOT', 'USDT')).toEqual({ available: 70n, frozen: 30n });
    l.release(a, 10n);
    expect(l.balance('a', 'SPOT', 'USDT')).toEqual({ available: 80n, frozen: 20n });
    expect(l.touched.slice(0, l.touchedCount)).toEqual([a]);
    const ins = l.account('@insurance', 'SYSTEM', 'USDT');
    l.hold(ins, 7n);
    expect(l.balance('@insurance', 'SYSTEM', 'USDT')).toEqual({ available: -7n, frozen: 7n });
    l.release(ins, 9n);
    expect(l.balance('@insurance', 'SYSTEM', 'USDT')).toEqual({ available: 2n, frozen: -2n });
    expect(l.touched.slice(0, l.touchedCount)).toEqual([a, ins]);
  });

  it('lists accounts by owner, then kind (ASSETS, SPOT, CONTRACT, OTC, SYSTEM), then asset; restores buckets as given', () => {
    const l = new Ledger();
    l.account('b', 'OTC', 'X');
    l.account('a', 'SYSTEM', 'Y');
    l.account('b', 'ASSETS', 'Y');
    l.account('b', 'ASSETS', 'X');
    l.account('a', 'CONTRACT', 'X');
    l.account('b', 'SPOT', 'X');
    expect([...l.accounts()].map((x) => `${x.owner}.${x.kind}.${x.asset}`)).toEqual([
      'b.ASSETS.Y',
      'b.ASSETS.X',
      'b.SPOT.X',
      'b.OTC.X',
      'a.CONTRACT.X',
      'a.SYSTEM.Y',
    ]);
    l.restoreAccount('b', 'OTC', 'X', 3n, 4n);
    l.restoreAccount('c', 'CONTRACT', 'X', 0n, 9n);
    l.restoreAccount('a', 'SYSTEM', 'Y', -7n, 0n);
    expect(l.balance('b', 'OTC', 'X')).toEqual({ available: 3n, frozen: 4n });
    expect(l.balancesOf('c')).toEqual(new Map([['CONTRACT', new Map([['X', { available: 0n, frozen: 9n }]])]]));
    expect(l.balancesOf('a')).toEqual(new Map([['SYSTEM', new Map([['Y', { available: -7n, frozen: 0n }]])]]));
    expect(l.assetTotals()).toEqual(
      new Map([
        ['Y', -7n],
        ['X', 16n],
      ]),
    );
    // balances are copies
    const bal = l.balance('b', 'OTC', 'X');
    bal.available = 100n;
    expect(l.balance('b', 'OTC', 'X').available).toBe(3n);
  });

  it('balancesOf groups every kind of an owner in kind order', () => {
    const l = new Ledger();
    for (const kind of ['OTC', 'CONTRACT', 'SPOT', 'ASSETS'] as const) l.restoreAccount('u', kind, 'USDT', 1n, 0n);
    l.restoreAccount('u', 'SPOT', 'BTC', 0n, 2n);
    l.restoreAccount('u', 'SPOT', 'ETH', 0n, 0n);
    const got = l.balancesOf('u');
    expect([...got.keys()]).toEqual(['ASSETS', 'SPOT', 'CONTRACT', 'OTC']);
    expect(got.get('SPOT')).toEqual(
      new Map([
        ['USDT', { available: 1n, frozen: 0n }],
        ['BTC', { available: 0n, frozen: 2n }],
      ]),
    );
  });
});
