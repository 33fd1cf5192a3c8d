/**
 * The wallet's recorded public identity (walletIdentity, wallet/wallet-engine.ts): the first fingerprint is kept, the
 * same again changes nothing, another is wallet_identity_mismatch, a malformed one invalid_config; it survives a
 * snapshot and a journal replay, and a state without it keeps its earlier snapshot and hash.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { Command } from '../src/types';
import { engineWithMarket } from './fixtures';

const A = 'a'.repeat(64);
const B = `${'b'.repeat(63)}0`;
const identity = (xpubFingerprint: string, ts = 10): Command => ({ type: 'walletIdentity', ts, xpubFingerprint });

describe('wallet identity', () => {
  it('keeps the first fingerprint; the same again is ok, another is refused', () => {
    const e = engineWithMarket();
    const before = e.stateHash();
    const snapBefore = JSON.stringify(e.snapshot());
    expect(e.walletIdentity()).toBeNull();
    expect(e.execute(identity('A'.repeat(64)))).toEqual({ code: 'invalid_config', events: [] });
    expect(e.execute(identity('ab'))).toEqual({ code: 'invalid_config', events: [] });
    expect(e.stateHash()).toBe(before);
    expect(JSON.stringify(e.snapshot())).toBe(snapBefore);
    expect(e.execute(identity(A))).toEqual({ code: 'ok', events: [] });
    expect(e.walletIdentity()).toBe(A);
    const after = e.stateHash();
    expect(after).not.toBe(before);
    expect(e.execute(identity(A, 11))).toEqual({ code: 'ok', events: [] });
    expect(e.execute(identity(B, 12))).toEqual({ code: 'wallet_identity_mismatch', events: [] });
    expect([e.walletIdentity(), e.stateHash()]).toEqual([A, after]);
  });

  it('survives a snapshot round trip (through JSON)', () => {
    const e = engineWithMarket();
    e.execute(identity(A));
    const copy = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>);
    expect(copy.walletIdentity()).toBe(A);
    expect(copy.stateHash()).toBe(e.stateHash());
    expect(copy.execute(identity(B))).toEqual({ code: 'wallet_identity_mismatch', events: [] });
  });
});
