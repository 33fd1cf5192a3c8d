/**
 * Model-based test of the wallet commands (ARCHITECTURE.md, conventions 5 and 14): random sequences of chain
 * deposits (with repeats), withdrawal requests (with repeated client ids), approvals by three operators, owner
 * cancels, operator rejects, broadcasts, mined, completions, failures and transfers run against the engine and
 * against a deliberately simple model written here from the rules in wallet/withdrawals.ts. After every command:
 * the same result code, every user's ASSETS and SPOT balances equal the model's, @chain and @fee equal the model's,
 * every asset sums to zero, and the open withdrawals equal the model's. Halfway the engine is replaced by its
 * snapshot's restore, which must change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { Command, WithdrawalState } from '../src/types';

const USERS = ['1', '2', '3'];
const OPS = ['op1', 'op2', 'op3'];
const hash = (i: number): string => `0x${i.toString(16).padStart(64, '0')}`;
const ADDR = `0x${'ab'.repeat(20)}`;
const DAY = 86_400_000;

type Op =
  | { k: 'credit'; user: number; tx: number; log: number; amount: bigint }
  | { k: 'request'; user: number; client: number; amount: bigint; fee: bigint; approvals: number; limit: bigint; frozen: boolean; locked: boolean }
  | { k: 'approve'; w: number; op: number }
  | { k: 'reject'; w: number; byOwner: boolean; user: number; op: number }
  | { k: 'broadcast'; w: number }
  | { k: 'mined'; w: number }
  | { k: 'complete'; w: number }
  | { k: 'fail'; w: number }
  | { k: 'transfer'; user: number; toSpot: boolean; amount: bigint }
  | { k: 'day' };

const amount = fc.bigInt({ min: 1n, max: 500n });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { withCrossShrink: true, depthSize: 'small' },
  fc.record({
    k: fc.constant('credit' as const),
    user: fc.nat(2),
    tx: fc.nat(6),
    log: fc.integer({ min: -1, max: 1 }),
    amount: fc.bigInt({ min: 1n, max: 1000n }),
  }),
  fc.record({
    k: fc.constant('request' as const),
    user: fc.nat(2),
    client: fc.nat(5),
    amount,
    fee: fc.bigInt({ min: 0n, max: 20n }),
    approvals: fc.nat(2),
    limit: fc.bigInt({ min: 0n, max: 3000n }),
    frozen: fc.boolean(),
    locked: fc.nat(9).map((n) => n === 0),
  }),
  fc.record({ k: fc.constant('approve' as const), w: fc.nat(3), op: fc.nat(2) }),
  fc.record({ k: fc.constant('reject' as const), w: fc.nat(3), byOwner: fc.boolean(), user: fc.nat(2), op: fc.nat(2) }),
  fc.record({ k: fc.constant('broadcast' as const), w: fc.nat(3) }),
  fc.record({ k: fc.constant('mined' as const), w: fc.nat(3) }),
  fc.record({ k: fc.constant('complete' as const), w: fc.nat(3) }),
  fc.record({ k: fc.constant('fail' as const), w: fc.nat(3) }),
  fc.record({ k: fc.constant('transfer' as const), user: fc.nat(2), toSpot: fc.boolean(), amount }),
  fc.constant({ k: 'day' as const }),
);

interface MW {
  id: string;
  user: string;
  amount: bigint;
  fee: bigint;
  state: WithdrawalState;
  required: number;
  approvals: string[];
  day: number;
}

/** The independent model: plain maps and the rules, written without the engine's code. */
class Model {
  assets = new Map(USERS.map((u) => [u, { available: 0n, frozen: 0n }]));
  spot = new Map(USERS.map((u) => [u, 0n]));
  chain = 0n;
  fee = 0n;
  credited = new Set<string>();
  ws = new Map<string, MW>();
  clients = new Map<string, string>();
  used = new Map<string, bigint>();
  seq = 0;

  /** The id an op's withdrawal index names: the index-th open withdrawal (oldest first), or an unknown id. */
  idOf(index: number): string {
    const ids = [...this.ws.keys()];
    return ids.length === 0 ? '99' : ids[index % ids.length]!;
  }

  apply(op: Op, ts: number, frozenUsers: Set<string>, lockedUsers: Set<string>): string {
    const day = Math.floor(ts / DAY);
    switch (op.k) {
      case 'day':
        return 'ok';
      case 'credit': {
        const u = USERS[op.user]!;
        const key = `${op.tx}:${op.log}`;
        if (this.credited.has(key)) return 'ok';
        this.credited.add(key);
        this.assets.get(u)!.available += op.amount;
        this.chain -= op.amount;
        return 'ok';
      }
      case 'request': {
        const u = USERS[op.user]!;
        const ck = `${u}:${op.client}`;
        if (this.clients.has(ck)) return 'ok';
        if (frozenUsers.has(u)) return 'account_frozen';
        if (op.fee >= op.amount) return 'amount_invalid';
        const a = this.assets.get(u)!;
        if (a.available < op.amount) return 'insufficient_balance';
        if (lockedUsers.has(u)) return 'withdrawal_locked';
        const usedKey = `${u}:${day}`;
        const used = this.used.get(usedKey) ?? 0n;
        if (used + op.amount > op.limit) return 'daily_limit_exceeded';
        this.used.set(usedKey, used + op.amount);
        a.available -= op.amount;
        a.frozen += op.amount;
        const id = `${++this.seq}`;
        this.clients.set(ck, id);
        this.ws.set(id, {
          id,
          user: u,
          amount: op.amount,
          fee: op.fee,
          state: op.approvals > 0 ? 'REVIEW' : 'APPROVED',
          required: op.approvals,
          approvals: [],
          day,
        });
        return 'ok';
      }
      case 'transfer': {
        const u = USERS[op.user]!;
        if (frozenUsers.has(u)) return 'account_frozen';
        const a = this.assets.get(u)!;
        if (op.toSpot) {
          if (a.available < op.amount) return 'insufficient_balance';
          a.available -= op.amount;
          this.spot.set(u, this.spot.get(u)! + op.amount);
        } else {
          if (this.spot.get(u)! < op.amount) return 'insufficient_balance';
          this.spot.set(u, this.spot.get(u)! - op.amount);
          a.available += op.amount;
        }
        return 'ok';
      }
      default: {
        const w = this.ws.get(this.idOf(op.w));
        if (w === undefined) return 'withdrawal_not_found';
        const release = (): void => {
          const a = this.assets.get(w.user)!;
          a.frozen -= w.amount;
          a.available += w.amount;
          const k = `${w.user}:${w.day}`;
          this.used.set(k, (this.used.get(k) ?? 0n) - w.amount);
        };
        const end = (state: WithdrawalState): void => {
          w.state = state;
          if (state === 'COMPLETED' || state === 'REJECTED' || state === 'FAILED') this.ws.delete(w.id);
        };
        if (op.k === 'approve') {
          if (w.state !== 'REVIEW') return 'withdrawal_state_invalid';
          const o = OPS[op.op]!;
          if (w.approvals.includes(o)) return 'withdrawal_already_approved';
          w.approvals.push(o);
          if (w.approvals.length >= w.required) w.state = 'APPROVED';
          return 'ok';
        }
        if (op.k === 'reject') {
          if (op.byOwner && USERS[op.user] !== w.user) return 'withdrawal_not_found';
          const allowed = op.byOwner ? w.state === 'REVIEW' : w.state === 'REVIEW' || w.state === 'APPROVED';
          if (!allowed) return 'withdrawal_state_invalid';
          release();
          end('REJECTED');
          return 'ok';
        }
        if (op.k === 'broadcast') {
          if (w.state !== 'APPROVED') return 'withdrawal_state_invalid';
          w.state = 'BROADCASTING';
          return 'ok';
        }
        if (op.k === 'mined' || op.k === 'complete') {
          if (w.state !== 'BROADCASTING' && w.state !== 'CONFIRMING') return 'withdrawal_state_invalid';
          if (op.k === 'mined') {
            w.state = 'CONFIRMING';
            return 'ok';
          }
          this.assets.get(w.user)!.frozen -= w.amount;
          this.chain += w.amount - w.fee;
          this.fee += w.fee;
          end('COMPLETED');
          return 'ok';
        }
        // fail
        if (w.state === 'REVIEW') return 'withdrawal_state_invalid';
        release();
        end('FAILED');
        return 'ok';
      }
    }
  }
}

function toCommand(op: Op, ts: number, model: Model): Command[] {
  const wid = 'w' in op ? model.idOf(op.w) : '';
  switch (op.k) {
    case 'day':
      return [];
    case 'credit':
      return [
        {
          type: 'creditDeposit',
          ts,
          userId: USERS[op.user]!,
          asset: 'USDT',
          amount: op.amount,
          chain: 'ETH',
          txHash: hash(op.tx),
          logIndex: op.log,
          address: ADDR,
          blockNumber: 1,
        },
      ];
    case 'request': {
      const userId = USERS[op.user]!;
      return [
        {
          type: 'requestWithdrawal',
          ts,
          userId,
          asset: 'USDT',
          chain: 'ETH',
          address: ADDR,
          amount: op.amount,
          fee: op.fee,
          clientId: `c${op.client}`,
          approvalsRequired: op.approvals,
          dailyLimit: op.limit,
        },
      ];
    }
    case 'approve':
      return [{ type: 'approveWithdrawal', ts, withdrawalId: wid, operatorId: OPS[op.op]! }];
    case 'reject':
      return [
        op.byOwner
          ? { type: 'rejectWithdrawal', ts, withdrawalId: wid, reason: 'cancel', userId: USERS[op.user]! }
          : { type: 'rejectWithdrawal', ts, withdrawalId: wid, reason: 'no', operatorId: OPS[op.op]! },
      ];
    case 'broadcast':
      return [{ type: 'broadcastWithdrawal', ts, withdrawalId: wid, from: ADDR, nonce: op.w, txHash: hash(1000 + op.w), rawTx: '0x02f8aa' }];
    case 'mined':
      return [{ type: 'withdrawalMined', ts, withdrawalId: wid, blockNumber: 5 }];
    case 'complete':
      return [{ type: 'completeWithdrawal', ts, withdrawalId: wid, blockNumber: 5 }];
    case 'fail':
      return [{ type: 'failWithdrawal', ts, withdrawalId: wid, reason: 'reverted' }];
    case 'transfer':
      return [
        {
          type: 'transfer',
          ts,
          userId: USERS[op.user]!,
          asset: 'USDT',
          from: op.toSpot ? 'ASSETS' : 'SPOT',
          to: op.toSpot ? 'SPOT' : 'ASSETS',
          amount: op.amount,
        },
      ];
  }
}

describe('wallet commands against an independent model', () => {
  it('same codes, balances, open withdrawals and zero sums after every command, across a snapshot restore', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 30, maxLength: 150 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), (ops, frozenFlags) => {
        let e = new Engine({ idempotencyWindowMs: 1000 * DAY });
        let ts = 1_800_000_000_000;
        e.execute({ type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
        for (const u of USERS) e.execute({ type: 'registerUser', ts, account: `mail:${u}@x.io`, uniqueKeys: [], profile: {} });
        const model = new Model();
        const frozen = new Set<string>();
        const locked = new Set<string>();
        ops.forEach((op, i) => {
          ts += op.k === 'day' ? DAY : 1000;
          if (op.k === 'request') {
            // Freeze or lock the requesting user for this command only (profile fields the engine reads).
            const u = USERS[op.user]!;
            const f = op.frozen && frozenFlags[op.user]! && op.client === 0;
            e.execute({ type: 'updateUser', ts, userId: u, profile: { frozen: f ? '1' : '0', withdrawLockUntil: op.locked ? String(ts + 1) : '0' } });
            frozen.clear();
            locked.clear();
            if (f) frozen.add(u);
            if (op.locked) locked.add(u);
          } else {
            frozen.clear();
            locked.clear();
            for (const u of USERS) e.execute({ type: 'updateUser', ts, userId: u, profile: { frozen: '0', withdrawLockUntil: '0' } });
          }
          const cmds = toCommand(op, ts, model);
          const expected = model.apply(op, ts, frozen, locked);
          for (const cmd of cmds) expect(e.execute(cmd).code, `${i}: ${op.k}`).toBe(expected);
          for (const u of USERS) {
            expect(e.balance(u, 'ASSETS', 'USDT')).toEqual(model.assets.get(u));
            expect(e.balance(u, 'SPOT', 'USDT').available).toBe(model.spot.get(u));
          }
          expect(e.balance('@chain', 'SYSTEM', 'USDT').available).toBe(model.chain);
          expect(e.balance('@fee', 'SYSTEM', 'USDT').available).toBe(model.fee);
          expect(e.assetTotals().get('USDT')).toBe(0n);
          expect(e.openWithdrawals().map((w) => [w.withdrawalId, w.state, w.approvals])).toEqual(
            [...model.ws.values()].map((w) => [w.id, w.state, w.approvals]),
          );
          if (i === Math.floor(ops.length / 2)) {
            const restored = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
            expect(restored.stateHash()).toBe(e.stateHash());
            e = restored;
          }
        });
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
