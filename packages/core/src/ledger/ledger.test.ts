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
