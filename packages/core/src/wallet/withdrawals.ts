/**
 * The wallet's state in the engine: withdrawals not yet final, the per-day withdrawn sums that the daily
 * limit reads, and the set of chain deposits ever credited (so a deposit is credited once for ever, whatever the
 * watcher re-reads after a restart or a lost database).
 *
 * Withdrawal life cycle (the engine enforces every transition; anything else is `withdrawal_state_invalid`):
 *
 *   REVIEW --approve (approvalsRequired different operators)--> APPROVED --broadcast--> BROADCASTING
 *   BROADCASTING --mined--> CONFIRMING (--mined again after a reorg moved it--> CONFIRMING)
 *   BROADCASTING | CONFIRMING --complete--> COMPLETED
 *   REVIEW (owner or operator) | APPROVED (operator) --reject--> REJECTED (hold released)
 *   APPROVED | BROADCASTING | CONFIRMING --fail--> FAILED (hold released)
 *
 * A request with approvalsRequired 0 starts APPROVED. Final withdrawals (COMPLETED, REJECTED, FAILED) leave the
 * engine's state after their event: their history is the database's.
 */
import type { WithdrawalState, WithdrawalView } from '../types';

/** Largest number of approvals a withdrawal may require. */
export const MAX_APPROVALS = 5;
/** Longest accepted reject or failure reason (characters). */
export const MAX_REASON_LENGTH = 500;
/** Longest accepted signed transaction (hex characters). */
export const MAX_RAW_TX_LENGTH = 200_000;

const TX_HASH_RE = /^0x[0-9a-f]{64}$/;
const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HEX_RE = /^0x[0-9a-fA-F]*$/;
const DAY_MS = 86_400_000;

/** True for a transaction hash as the wallet journals it: 0x and 64 lowercase hex digits. */
export function isTxHash(s: unknown): s is string {
  return typeof s === 'string' && TX_HASH_RE.test(s);
}
/** True for an EVM address: 0x and 40 hex digits (any case; the checksum is the server's concern). */
export function isEvmAddress(s: unknown): s is string {
  return typeof s === 'string' && EVM_ADDRESS_RE.test(s);
}
/** True for 0x-prefixed hex text of at most `max` characters. */
export function isHex(s: unknown, max: number): s is string {
  return typeof s === 'string' && s.length <= max && s.length >= 4 && HEX_RE.test(s);
}
/** The UTC day number (days since 1970-01-01) of a Unix ms time: the daily limit's day. */
export function utcDay(ts: number): number {
  return Math.floor(ts / DAY_MS);
}
/** The dedupe key of a chain deposit: chain, tx hash and log index (-1 for a native transfer). */
export function chainDepositKey(chain: string, txHash: string, logIndex: number): string {
  return `${chain}:${txHash}:${logIndex}`;
}

/** Snapshot row of an open withdrawal: the view with bigints as decimal strings. */
export type WithdrawalRow = Omit<WithdrawalView, 'amount' | 'fee'> & { amount: string; fee: string };
/** Snapshot row of a daily sum: [userId, asset, utcDay, used (decimal string)]. */
export type DailyRow = [string, string, number, string];

/** Withdrawals in flight, daily sums and credited chain deposits (see the file comment). */
export class WalletState {
  /** last assigned withdrawal id (ids are "1", "2", ...) */
  seq = 0;
  /** non-final withdrawals by id, in creation order */
  readonly open = new Map<string, WithdrawalView>();
  /** `${userId}\u0000${asset}` -> the sum requested on `day` (not rejected or failed) */
  private readonly daily = new Map<string, { day: number; used: bigint }>();
  /** chainDepositKey of every credited chain deposit */
  readonly credited = new Set<string>();
  /** the wallet's recorded public identity (walletIdentity: SHA-256 hex of the deposit xpub), null before */
  identity: string | null = null;

  /** Amount of `asset` the user has withdrawn (requested, not rejected or failed) on UTC day `day`. */
  usedOn(userId: string, asset: string, day: number): bigint {
    const d = this.daily.get(`${userId}\u0000${asset}`);
    return d !== undefined && d.day === day ? d.used : 0n;
  }

  /** Adds `delta` (may be negative, on a release) to the user's sum of `day`; a sum of another day is replaced. */
  addUsed(userId: string, asset: string, day: number, delta: bigint): void {
    const k = `${userId}\u0000${asset}`;
    const d = this.daily.get(k);
    if (d === undefined || d.day !== day) {
      if (delta > 0n) this.daily.set(k, { day, used: delta });
      return;
    }
    d.used += delta;
    if (d.used <= 0n) this.daily.delete(k);
  }

  /** Whether a state may move to another by the named action (the diagram in the file comment). */
  static allowed(state: WithdrawalState, action: 'approve' | 'rejectByOwner' | 'rejectByOperator' | 'broadcast' | 'mined' | 'complete' | 'fail'): boolean {
    switch (action) {
      case 'approve':
      case 'rejectByOwner':
        return state === 'REVIEW';
      case 'rejectByOperator':
        return state === 'REVIEW' || state === 'APPROVED';
      case 'broadcast':
        return state === 'APPROVED';
      case 'mined':
      case 'complete':
        return state === 'BROADCASTING' || state === 'CONFIRMING';
      case 'fail':
        return state === 'APPROVED' || state === 'BROADCASTING' || state === 'CONFIRMING';
    }
  }

  /** Canonical snapshot rows (fixed orders). */
  rows(): { seq: number; open: WithdrawalRow[]; daily: DailyRow[]; credited: string[]; identity?: string } {
    const open: WithdrawalRow[] = [...this.open.values()].map((w) => ({
      ...w,
      approvals: [...w.approvals],
      amount: w.amount.toString(),
      fee: w.fee.toString(),
    }));
    const daily: DailyRow[] = [...this.daily.entries()]
      .map(([k, d]): DailyRow => {
        const i = k.indexOf('\u0000');
        return [k.slice(0, i), k.slice(i + 1), d.day, d.used.toString()];
      })
      .sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
    // the identity only once recorded, so earlier states keep their snapshots and hashes
    return { seq: this.seq, open, daily, credited: [...this.credited].sort(cmp), ...(this.identity !== null ? { identity: this.identity } : {}) };
  }

  /** Restore from `rows()` output (possibly after a JSON round trip). Throws on a malformed row. */
  restore(r: { seq: number; open: WithdrawalRow[]; daily: DailyRow[]; credited: string[]; identity?: string }): void {
    if (
      typeof r.seq !== 'number' ||
      !Array.isArray(r.open) ||
      !Array.isArray(r.daily) ||
      !Array.isArray(r.credited) ||
      (r.identity !== undefined && typeof r.identity !== 'string')
    ) {
      throw new Error('restore: malformed wallet state');
    }
    this.seq = r.seq;
    this.identity = r.identity ?? null;
    for (const w of r.open) this.open.set(w.withdrawalId, { ...w, approvals: [...w.approvals], amount: BigInt(w.amount), fee: BigInt(w.fee) });
    for (const [u, a, day, used] of r.daily) this.daily.set(`${u}\u0000${a}`, { day, used: BigInt(used) });
    for (const k of r.credited) this.credited.add(k);
  }
}

/** A copy of a withdrawal view (the engine's own object is never handed out). */
export function copyWithdrawal(w: WithdrawalView): WithdrawalView {
  return { ...w, approvals: [...w.approvals] };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
