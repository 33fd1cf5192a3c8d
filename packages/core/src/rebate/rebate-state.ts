/**
 * The rebate state of the engine (rules in rebate/types.ts): the invitees' contract fees accrued per rebate
 * day and not settled yet, and the last settled day. Bounded: a day's accruals are dropped when it is settled, so
 * the state holds at most the days since the last settlement (normally today's), one entry per invitee who paid a
 * fee on them. Deterministic: entries are kept in insertion order (part of the state: snapshots list them in it),
 * and the settlement pays them in that order.
 */
import type { Account, Ledger } from '../ledger/ledger';
import type { CommandResult, EngineEvent, RejectCode } from '../types';
import { ACCOUNT_KINDS } from '../types';
import { MAX_REBATE_DAY, REBATE_ASSET, REBATE_THRESHOLD_COINS, rebateDay, rebateOf, type RebateCommand, type RebateReads } from './types';

/** What the rebate state needs from the engine. */
export interface RebateHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  /** the scale of a listed asset, or undefined */
  hasAsset(code: string): number | undefined;
}

/** Snapshot: the last settled day and the open days' accruals as [day, [[inviteeId, inviterId, fee], ...]]. */
export interface RebateSnapshot {
  settledThrough: number;
  days: [number, [string, string, string][]][];
}

interface Accrual {
  inviterId: string;
  fee: bigint;
}

/** Every rejection settleRebates may answer: a closed list, the compiler refuses any other code in this file. */
export const REBATE_REJECT_CODES = ['invalid_config', 'rebate_day_open'] as const satisfies readonly RejectCode[];
/** A rebate command's rejection (REBATE_REJECT_CODES). */
export type RebateRejectCode = (typeof REBATE_REJECT_CODES)[number];

function reject(code: RebateRejectCode): CommandResult {
  return { code, events: [] };
}

/** The command types the rebates handle (the engine routes them here; `RebateCommand` in types.ts is their union). */
export const REBATE_COMMANDS = ['settleRebates'] as const satisfies readonly RebateCommand['type'][];

/** The rebate state (see the file comment). */
export class RebateState implements RebateReads {
  /** the last settled day, -1 = none yet */
  private settledThrough = -1;
  /** day -> inviteeId -> accrual; days in insertion order (ascending, see accrue) */
  private days = new Map<number, Map<string, Accrual>>();

  /** True while nothing was ever accrued or settled (the snapshot then leaves the rebate part out). */
  get isEmpty(): boolean {
    return this.settledThrough === -1 && this.days.size === 0;
  }

  /**
   * Accrues a contract fee (REBATE_ASSET units, > 0) paid at `ts` by `inviteeId`, invited by `inviterId`. The day is
   * the fill's rebate day, or the day after the last settled one when the fill's day is already settled (a command
   * time that went back across midnight; never lost, never paid twice).
   */
  accrue(ts: number, inviteeId: string, inviterId: string, fee: bigint): void {
    if (fee <= 0n) return;
    let day = rebateDay(ts);
    if (day <= this.settledThrough) day = this.settledThrough + 1;
    let m = this.days.get(day);
    if (m === undefined) {
      m = new Map();
      // Keep the days ascending (a later day never precedes an earlier one in the map).
      if ([...this.days.keys()].some((d) => d > day)) {
        const rest = [...this.days.entries()];
        this.days = new Map();
        for (const [d, v] of rest) if (d < day) this.days.set(d, v);
        this.days.set(day, m);
        for (const [d, v] of rest) if (d > day) this.days.set(d, v);
      } else {
        this.days.set(day, m);
      }
    }
    const a = m.get(inviteeId);
    if (a === undefined) m.set(inviteeId, { inviterId, fee });
    else a.fee += fee;
  }

  /** Applies settleRebates (rules in rebate/types.ts). */
  execute(cmd: RebateCommand, host: RebateHost): CommandResult {
    const { day, ts } = cmd;
    if (typeof day !== 'number' || Math.floor(day) !== day || day < 0 || day > MAX_REBATE_DAY) return reject('invalid_config');
    if (day >= rebateDay(ts)) return reject('rebate_day_open');
    if (day <= this.settledThrough) return { code: 'ok', events: [], duplicate: true };
    const fromDay = this.settledThrough + 1;
    const scale = host.hasAsset(REBATE_ASSET);
    const fee = scale === undefined ? undefined : host.ledger.account('@fee', 'SYSTEM', REBATE_ASSET);
    const threshold = scale === undefined ? 0n : REBATE_THRESHOLD_COINS * 10n ** BigInt(scale);
    const qualified = new Map<string, boolean>();
    const qualifies = (inviterId: string): boolean => {
      let q = qualified.get(inviterId);
      if (q === undefined) {
        let total = 0n;
        for (const k of ACCOUNT_KINDS) {
          const b = host.ledger.balance(inviterId, k, REBATE_ASSET);
          total += b.available + b.frozen;
        }
        q = total >= threshold;
        qualified.set(inviterId, q);
      }
      return q;
    };
    let payouts = 0;
    let paidTotal = 0n;
    for (const [d, m] of [...this.days]) {
      if (d > day) break;
      for (const [inviteeId, a] of m) {
        const rebate = rebateOf(a.fee);
        // The threshold is judged before this settlement pays the inviter anything (first look is memoised). Without
        // the asset listed there is no @fee account to pay from: nothing is paid (the event must not say otherwise).
        const paid = fee !== undefined && qualifies(a.inviterId) ? rebate : 0n;
        if (paid > 0n && fee !== undefined) {
          const to: Account = host.ledger.account(a.inviterId, 'CONTRACT', REBATE_ASSET);
          host.ledger.post(fee, 'available', to, 'available', paid);
        }
        host.events.push({ type: 'rebatePaid', ts, day: d, inviterId: a.inviterId, inviteeId, asset: REBATE_ASSET, fee: a.fee, rebate, paid });
        payouts++;
        paidTotal += paid;
      }
      this.days.delete(d);
    }
    this.settledThrough = day;
    host.events.push({ type: 'rebatesSettled', ts, fromDay, day, payouts, paid: paidTotal });
    return { code: 'ok', events: host.events };
  }

  // ---- reads ----------------------------------------------------------------------------------

  rebateSettledThrough(): number {
    return this.settledThrough;
  }

  rebateAccrued(inviteeId: string): { day: number; inviterId: string; fee: bigint; rebate: bigint }[] {
    const out: { day: number; inviterId: string; fee: bigint; rebate: bigint }[] = [];
    for (const [day, m] of this.days) {
      const a = m.get(inviteeId);
      if (a !== undefined) out.push({ day, inviterId: a.inviterId, fee: a.fee, rebate: rebateOf(a.fee) });
    }
    return out;
  }

  // ---- snapshot -------------------------------------------------------------------------------

  /** The canonical snapshot rows (insertion order kept). */
  rows(): RebateSnapshot {
    return {
      settledThrough: this.settledThrough,
      days: [...this.days].map(([d, m]) => [d, [...m].map(([invitee, a]) => [invitee, a.inviterId, a.fee.toString()] as [string, string, string])]),
    };
  }

  /** Rebuilds the state from `rows()` (after a JSON round trip). */
  static restore(s: RebateSnapshot): RebateState {
    const r = new RebateState();
    r.settledThrough = s.settledThrough;
    for (const [d, entries] of s.days) {
      const m = new Map<string, Accrual>();
      for (const [invitee, inviter, fee] of entries) m.set(invitee, { inviterId: inviter, fee: BigInt(fee) });
      r.days.set(d, m);
    }
    return r;
  }
}
