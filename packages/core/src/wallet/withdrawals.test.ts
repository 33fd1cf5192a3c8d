/**
 * The wallet's commands in the engine, one rule per test: a chain deposit is credited once for ever; a
 * withdrawal request holds at once and is refused for a frozen or locked user, above the daily limit or the balance;
 * approvals by different operators; rejection and failure release the hold; completion pays the chain and the fee
 * account; snapshots keep all of it; transfers carry a `transferred` event. Every test asserts the balances.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult } from '../types';

const COIN = 100_000_000n;
let t = 1_800_000_000_000;
const ts = (): number => ++t;
const TX = `0x${'ab'.repeat(32)}`;
const TX2 = `0x${'cd'.repeat(32)}`;
const ADDR = `0x${'12'.repeat(20)}`;

function ok(e: Engine, cmd: Command): CommandResult {
  const r = e.execute(cmd);
  if (r.code !== 'ok') throw new Error(`expected ok for ${cmd.type}, got ${r.code}`);
  return r;
}

/** Engine with USDT and user "1" holding 1,000 USDT in ASSETS from a chain deposit. */
function walletEngine(): Engine {
  const e = new Engine();
  ok(e, { type: 'addAsset', ts: ts(), asset: { code: 'USDT', scale: 8 } });
  ok(e, { type: 'registerUser', ts: ts(), account: 'mail:a@x.io', uniqueKeys: [], profile: {} });
  ok(e, { type: 'registerUser', ts: ts(), account: 'mail:b@x.io', uniqueKeys: [], profile: {} });
  ok(e, credit('1', 1000n * COIN, TX, 0));
  return e;
}

function credit(userId: string, amount: bigint, txHash: string, logIndex: number): Extract<Command, { type: 'creditDeposit' }> {
  return { type: 'creditDeposit', ts: ts(), userId, asset: 'USDT', amount, chain: 'ETH', txHash, logIndex, address: ADDR, blockNumber: 10 };
}

function request(over: Partial<Extract<Command, { type: 'requestWithdrawal' }>> = {}): Command {
  return {
    type: 'requestWithdrawal',
    ts: ts(),
    userId: '1',
    asset: 'USDT',
    chain: 'ETH',
    address: ADDR,
    amount: 100n * COIN,
    fee: 1n * COIN,
    clientId: `c${t}`,
    approvalsRequired: 1,
    dailyLimit: 50_000n * COIN,
    ...over,
  };
}

const bal = (e: Engine, owner = '1', kind: 'ASSETS' | 'SYSTEM' = 'ASSETS') => e.balance(owner, kind, 'USDT');

describe('creditDeposit', () => {
  it('credits @chain -> ASSETS once for ever per (chain, txHash, logIndex), also after a snapshot round trip', () => {
    const e = walletEngine();
    expect(bal(e)).toEqual({ available: 1000n * COIN, frozen: 0n });
    expect(bal(e, '@chain', 'SYSTEM').available).toBe(-1000n * COIN);
    const again = e.execute(credit('1', 1000n * COIN, TX, 0));
    expect(again).toMatchObject({ code: 'ok', events: [], duplicate: true });
    const restored = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(restored.execute(credit('1', 1000n * COIN, TX, 0)).duplicate).toBe(true);
    // another log of the same transaction is another deposit
    const other = ok(restored, credit('1', 5n * COIN, TX, 1));
    expect(other.events[0]).toMatchObject({ type: 'depositCredited', deposit: { txHash: TX, logIndex: 1, amount: 5n * COIN } });
    expect(restored.balance('1', 'ASSETS', 'USDT').available).toBe(1005n * COIN);
    expect(restored.depositCredited('ETH', TX, 1)).toBe(true);
    expect(restored.depositCredited('ETH', TX2, -1)).toBe(false);
  });

  it('refuses malformed hashes, an unknown user and a non-positive amount, changing nothing', () => {
    const e = walletEngine();
    const before = e.stateHash();
    expect(e.execute({ ...credit('1', COIN, TX2, -1), txHash: TX2.toUpperCase() }).code).toBe('invalid_config');
    expect(e.execute({ ...credit('1', COIN, TX2, -2) }).code).toBe('invalid_config');
    expect(e.execute(credit('9', COIN, TX2, -1)).code).toBe('user_not_found');
    expect(e.execute(credit('1', 0n, TX2, -1)).code).toBe('amount_invalid');
    expect(e.stateHash()).toBe(before);
  });
});

describe('requestWithdrawal', () => {
  it('holds the amount at once, goes to REVIEW, and a retry with the same clientId returns the first', () => {
    const e = walletEngine();
    const cmd = request({ clientId: 'same' });
    const r = ok(e, cmd);
    expect(r.withdrawal).toMatchObject({ withdrawalId: '1', state: 'REVIEW', amount: 100n * COIN, fee: COIN, approvals: [] });
    expect(bal(e)).toEqual({ available: 900n * COIN, frozen: 100n * COIN });
    const again = e.execute({ ...cmd, ts: ts() });
    expect(again).toMatchObject({ code: 'ok', events: [], duplicate: true, withdrawal: { withdrawalId: '1' } });
    expect(bal(e)).toEqual({ available: 900n * COIN, frozen: 100n * COIN });
  });

  it('starts APPROVED when no approval is required', () => {
    const e = walletEngine();
    expect(ok(e, request({ approvalsRequired: 0 })).withdrawal?.state).toBe('APPROVED');
  });

  it('refuses (nothing held) a frozen user, a locked user, the daily limit, the balance and a fee not below the amount', () => {
    const e = walletEngine();
    const before = e.stateHash();
    expect(e.execute(request({ amount: 1001n * COIN })).code).toBe('insufficient_balance');
    expect(e.execute(request({ fee: 100n * COIN })).code).toBe('amount_invalid');
    expect(e.execute(request({ dailyLimit: 99n * COIN })).code).toBe('daily_limit_exceeded');
    expect(e.stateHash()).toBe(before);
    ok(e, { type: 'updateUser', ts: ts(), userId: '1', profile: { withdrawLockUntil: String(t + 1000) } });
    expect(e.execute(request()).code).toBe('withdrawal_locked');
    ok(e, { type: 'updateUser', ts: ts(), userId: '1', profile: { withdrawLockUntil: '0', frozen: '1' } });
    expect(e.execute(request()).code).toBe('account_frozen');
    expect(bal(e)).toEqual({ available: 1000n * COIN, frozen: 0n });
  });

  it('one daily limit per user and coin over every network: requests spread over four networks, in every order, stop at it', () => {
    // The published rule: a user's withdrawals of a coin in one UTC day add up against one limit, whichever network
    // each goes on. Model: the sum of accepted amounts never exceeds the limit and a request is accepted exactly when
    // it fits; tried over every order of the networks for a 3-request day of 100 each against a limit of 250.
    const networks = ['ETH', 'BSC', 'ARBITRUM', 'MATIC'];
    const limit = 250n * COIN;
    const orders: string[][] = [];
    const permute = (rest: string[], acc: string[]) => {
      if (acc.length === 3) orders.push(acc);
      else
        for (const n of rest)
          permute(
            rest.filter((x) => x !== n),
            [...acc, n],
          );
    };
    permute(networks, []);
    expect(orders).toHaveLength(24);
    for (const order of orders) {
      const e = walletEngine();
      let used = 0n;
      for (const chain of order) {
        const r = e.execute(request({ chain, dailyLimit: limit }));
        const fits = used + 100n * COIN <= limit;
        expect([order.join('>'), chain, r.code]).toEqual([order.join('>'), chain, fits ? 'ok' : 'daily_limit_exceeded']);
        if (r.code === 'ok') used += 100n * COIN;
      }
      expect(used).toBe(200n * COIN);
      expect(bal(e)).toEqual({ available: 800n * COIN, frozen: 200n * COIN });
    }
  });

  it('counts the day: two requests fill the limit, a rejected one gives its amount back, the next UTC day starts at 0', () => {
    const e = walletEngine();
    const limit = 250n * COIN;
    ok(e, request({ dailyLimit: limit }));
    const second = ok(e, request({ dailyLimit: limit })).withdrawal!;
    expect(e.execute(request({ dailyLimit: limit })).code).toBe('daily_limit_exceeded');
    ok(e, { type: 'rejectWithdrawal', ts: ts(), withdrawalId: second.withdrawalId, reason: 'r', operatorId: 'op1' });
    ok(e, request({ dailyLimit: limit }));
    t += 86_400_000;
    ok(e, request({ dailyLimit: limit }));
    expect(bal(e)).toEqual({ available: 700n * COIN, frozen: 300n * COIN });
  });
});

describe('the withdrawal life cycle', () => {
  it('needs approvalsRequired different operators, then broadcast, mined, completed: the chain gets amount - fee, @fee the fee', () => {
    const e = walletEngine();
    const id = ok(e, request({ approvalsRequired: 2 })).withdrawal!.withdrawalId;
    expect(ok(e, { type: 'approveWithdrawal', ts: ts(), withdrawalId: id, operatorId: 'op1' }).withdrawal?.state).toBe('REVIEW');
    expect(e.execute({ type: 'approveWithdrawal', ts: ts(), withdrawalId: id, operatorId: 'op1' }).code).toBe('withdrawal_already_approved');
    expect(e.execute({ type: 'broadcastWithdrawal', ts: ts(), withdrawalId: id, from: ADDR, nonce: 0, txHash: TX2, rawTx: '0x02f8' }).code).toBe(
      'withdrawal_state_invalid',
    );
    const approved = ok(e, { type: 'approveWithdrawal', ts: ts(), withdrawalId: id, operatorId: 'op2', audit: { action: 'withdraw.approve' } });
    expect(approved.withdrawal).toMatchObject({ state: 'APPROVED', approvals: ['op1', 'op2'] });
    expect(approved.events[0]).toMatchObject({ type: 'withdrawalUpdated', audit: { action: 'withdraw.approve' } });
    ok(e, { type: 'broadcastWithdrawal', ts: ts(), withdrawalId: id, from: ADDR, nonce: 7, txHash: TX2, rawTx: '0x02f8' });
    // the owner can no longer cancel, an operator no longer reject
    expect(e.execute({ type: 'rejectWithdrawal', ts: ts(), withdrawalId: id, reason: 'x', userId: '1' }).code).toBe('withdrawal_state_invalid');
    expect(e.execute({ type: 'rejectWithdrawal', ts: ts(), withdrawalId: id, reason: 'x', operatorId: 'op1' }).code).toBe('withdrawal_state_invalid');
    expect(ok(e, { type: 'withdrawalMined', ts: ts(), withdrawalId: id, blockNumber: 20 }).withdrawal).toMatchObject({
      state: 'CONFIRMING',
      nonce: 7,
      txHash: TX2,
    });
    const done = ok(e, { type: 'completeWithdrawal', ts: ts(), withdrawalId: id, blockNumber: 20 });
    expect(done.withdrawal?.state).toBe('COMPLETED');
    expect(bal(e)).toEqual({ available: 900n * COIN, frozen: 0n });
    expect(bal(e, '@chain', 'SYSTEM').available).toBe(-1000n * COIN + 99n * COIN);
    expect(bal(e, '@fee', 'SYSTEM').available).toBe(COIN);
    expect(e.withdrawal(id)).toBeUndefined();
    expect(e.execute({ type: 'completeWithdrawal', ts: ts(), withdrawalId: id, blockNumber: 20 }).code).toBe('withdrawal_not_found');
    for (const total of e.assetTotals().values()) expect(total).toBe(0n);
  });

  it('the owner cancels while in review; another user cannot; failure after broadcast releases the hold', () => {
    const e = walletEngine();
    const id = ok(e, request()).withdrawal!.withdrawalId;
    expect(e.execute({ type: 'rejectWithdrawal', ts: ts(), withdrawalId: id, reason: 'mine', userId: '2' }).code).toBe('withdrawal_not_found');
    const cancelled = ok(e, { type: 'rejectWithdrawal', ts: ts(), withdrawalId: id, reason: 'cancelled', userId: '1' });
    expect(cancelled.withdrawal).toMatchObject({ state: 'REJECTED', reason: 'cancelled', rejectedBy: null });
    expect(bal(e)).toEqual({ available: 1000n * COIN, frozen: 0n });
    const id2 = ok(e, request({ approvalsRequired: 0 })).withdrawal!.withdrawalId;
    ok(e, { type: 'broadcastWithdrawal', ts: ts(), withdrawalId: id2, from: ADDR, nonce: 1, txHash: TX, rawTx: '0x02f8' });
    expect(ok(e, { type: 'failWithdrawal', ts: ts(), withdrawalId: id2, reason: 'reverted' }).withdrawal?.state).toBe('FAILED');
    expect(bal(e)).toEqual({ available: 1000n * COIN, frozen: 0n });
  });

  it('open withdrawals and daily sums survive a snapshot round trip with the same state hash', () => {
    const e = walletEngine();
    const id = ok(e, request({ approvalsRequired: 2 })).withdrawal!.withdrawalId;
    ok(e, { type: 'approveWithdrawal', ts: ts(), withdrawalId: id, operatorId: 'op1' });
    const r = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
    expect(r.stateHash()).toBe(e.stateHash());
    expect(r.openWithdrawals()).toEqual(e.openWithdrawals());
    expect(r.execute(request({ dailyLimit: 150n * COIN })).code).toBe('daily_limit_exceeded');
    expect(ok(r, { type: 'approveWithdrawal', ts: ts(), withdrawalId: id, operatorId: 'op2' }).withdrawal?.state).toBe('APPROVED');
    expect(ok(r, request()).withdrawal?.withdrawalId).toBe('2');
  });
});

describe('transfer', () => {
  it('emits a transferred event with the accounts and the client id', () => {
    const e = walletEngine();
    const r = ok(e, { type: 'transfer', ts: ts(), userId: '1', asset: 'USDT', from: 'ASSETS', to: 'SPOT', amount: 5n * COIN, clientId: 'tr1' });
    expect(r.events[0]).toEqual({ type: 'transferred', ts: t, userId: '1', asset: 'USDT', from: 'ASSETS', to: 'SPOT', amount: 5n * COIN, clientId: 'tr1' });
  });
});
