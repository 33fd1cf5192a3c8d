/**
 * The wallet state's own rules, below the engine's commands (withdrawals.test.ts): what counts as a transaction
 * hash, an EVM address and signed transaction hex (exact lengths, anchored, strings only: a value that only
 * stringifies to a valid one is refused); the daily sums (a new day starts from the first positive amount, a sum
 * released to zero leaves no row); the canonical snapshot rows (daily sums by user then asset, credited deposits
 * sorted, whatever the insertion order); and restore refusing a malformed snapshot.
 */
import { describe, expect, it } from 'vitest';
import { chainDepositKey, isEvmAddress, isHex, isTxHash, utcDay, WalletState } from './withdrawals';

/** A value that is not a string but stringifies to `s` (a regex test would coerce it). */
const lookalike = (s: string): unknown => ({ toString: () => s });

describe('isTxHash, isEvmAddress, isHex', () => {
  const hash = `0x${'ab'.repeat(32)}`;
  const addr = `0x${'aB'.repeat(20)}`;

  it('a transaction hash is 0x and exactly 64 lowercase hex digits, a string', () => {
    expect(isTxHash(hash)).toBe(true);
    expect(isTxHash(hash.toUpperCase().replace('0X', '0x'))).toBe(false);
    expect(isTxHash(hash.slice(0, -1))).toBe(false);
    expect(isTxHash(`${hash}a`)).toBe(false);
    expect(isTxHash(`a${hash}`)).toBe(false);
    expect(isTxHash(lookalike(hash))).toBe(false);
    expect(isTxHash(undefined)).toBe(false);
  });

  it('an EVM address is 0x and exactly 40 hex digits of any case, a string', () => {
    expect(isEvmAddress(addr)).toBe(true);
    expect(isEvmAddress(addr.slice(0, -1))).toBe(false);
    expect(isEvmAddress(`${addr}0`)).toBe(false);
    expect(isEvmAddress(`z${addr}`)).toBe(false);
    expect(isEvmAddress(`${addr}z`)).toBe(false);
    expect(isEvmAddress(lookalike(addr))).toBe(false);
    expect(isEvmAddress(null)).toBe(false);
  });

  it('signed transaction hex is 0x-prefixed hex of 4 to max characters, a string', () => {
    expect(isHex('0xab', 10)).toBe(true);
    expect(isHex('0xa', 10)).toBe(false);
    expect(isHex(`0x${'a'.repeat(8)}`, 10)).toBe(true);
    expect(isHex(`0x${'a'.repeat(9)}`, 10)).toBe(false);
    expect(isHex('0xabzz', 10)).toBe(false);
    expect(isHex('zz0xab', 10)).toBe(false);
    expect(isHex('0xag', 10)).toBe(false);
    expect(isHex(lookalike('0xabcd'), 10)).toBe(false);
    expect(isHex(12345, 10)).toBe(false);
  });

  it('utcDay and the deposit key', () => {
    expect([utcDay(0), utcDay(86_399_999), utcDay(86_400_000)]).toEqual([0, 0, 1]);
    expect(chainDepositKey('ETH', '0xab', -1)).toBe('ETH:0xab:-1');
  });
});

describe('WalletState daily sums', () => {
  it('a day starts from its first positive amount; a zero or a release on a new day leaves no row', () => {
    const w = new WalletState();
    w.addUsed('1', 'USDT', 10, 0n);
    w.addUsed('2', 'USDT', 10, -5n);
    expect(w.rows().daily).toEqual([]);
    w.addUsed('1', 'USDT', 10, 7n);
    expect(w.usedOn('1', 'USDT', 10)).toBe(7n);
    expect(w.usedOn('1', 'USDT', 11)).toBe(0n);
    w.addUsed('1', 'USDT', 11, 3n); // the next day replaces the sum
    expect([w.usedOn('1', 'USDT', 10), w.usedOn('1', 'USDT', 11)]).toEqual([0n, 3n]);
  });

  it('a sum released to exactly zero leaves no row', () => {
    const w = new WalletState();
    w.addUsed('1', 'USDT', 10, 7n);
    w.addUsed('1', 'USDT', 10, -7n);
    expect(w.rows().daily).toEqual([]);
    expect(w.usedOn('1', 'USDT', 10)).toBe(0n);
  });
});

describe('WalletState snapshot rows', () => {
  it('daily sums sorted by user then asset, credited deposits sorted, whatever the insertion order', () => {
    const w = new WalletState();
    w.addUsed('2', 'USDT', 10, 1n);
    w.addUsed('1', 'USDT', 10, 2n);
    w.addUsed('1', 'BTC', 10, 3n);
    w.addUsed('10', 'ETH', 10, 4n);
    w.credited.add('ETH:0xcc:1');
    w.credited.add('ETH:0xaa:2');
    w.credited.add('ETH:0xbb:0');
    const rows = w.rows();
    expect(rows.daily).toEqual([
      ['1', 'BTC', 10, '3'],
      ['1', 'USDT', 10, '2'],
      ['10', 'ETH', 10, '4'],
      ['2', 'USDT', 10, '1'],
    ]);
    expect(rows.credited).toEqual(['ETH:0xaa:2', 'ETH:0xbb:0', 'ETH:0xcc:1']);
    const back = new WalletState();
    back.restore(JSON.parse(JSON.stringify(rows)));
    expect(back.rows()).toEqual(rows);
  });

  it('restore refuses a snapshot without its seq, open, daily or credited', () => {
    const good = { seq: 1, open: [], daily: [], credited: [] };
    expect(() => new WalletState().restore(good)).not.toThrow();
    for (const bad of [
      { ...good, seq: '1' },
      { ...good, open: null },
      { ...good, daily: {} },
      { ...good, credited: 'x' },
    ]) {
      expect(() => new WalletState().restore(bad as unknown as typeof good)).toThrow('restore: malformed wallet state');
    }
  });
});
