/**
 * The activities of the engine (rules in activity/types.ts): definitions, participants, the progress the
 * engine counts from the events of each command (`observe`), and the payout. Deterministic: time comes with each
 * command, ids and the progress order are sequence numbers.
 */
import type { Ledger } from '../ledger/ledger';
import type { CommandResult, EngineEvent, RejectCode } from '../types';
import {
  ACTIVITY_KINDS,
  ACTIVITY_MAX_CONTENT_FIELDS,
  ACTIVITY_MAX_PRIZES,
  ACTIVITY_MAX_TEXT,
  ACTIVITY_PAYER,
  ACTIVITY_SCOPES,
  type ActivityCommand,
  type ActivityEntry,
  type ActivityPayout,
  type ActivityReads,
  type ActivityTerms,
  type ActivityView,
} from './types';

/** What the activities need from the engine. */
export interface ActivityHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  /** true for a registered user */
  isUser(userId: string): boolean;
  /** the scale of a listed asset, or undefined */
  hasAsset(code: string): number | undefined;
  /** the quote asset of a spot market, or undefined */
  spotQuote(symbol: string): string | undefined;
  /** the settle asset of a perpetual market, or undefined */
  perpQuote(symbol: string): string | undefined;
}

/** Largest amount accepted in a definition (asset units): 10^30. */
const MAX_AMOUNT = 10n ** 30n;
const MAX_KEY = 128;
const MAX_TS = 2 ** 53 - 1;

/**
 * Every rejection an activity command may answer: a closed list, the compiler refuses any other code in this file.
 * Listed in the order of the engine's union (REJECT_CODES), not the order the checks run in (each handler below has
 * its own).
 */
export const ACTIVITY_REJECT_CODES = [
  'invalid_order',
  'user_not_found',
  'activity_invalid',
  'activity_not_found',
  'activity_not_started',
  'activity_ended',
  'activity_already_joined',
  'activity_not_ended',
] as const satisfies readonly RejectCode[];
/** An activity command's rejection (ACTIVITY_REJECT_CODES). */
export type ActivityRejectCode = (typeof ACTIVITY_REJECT_CODES)[number];

function reject(code: ActivityRejectCode): CommandResult {
  return { code, events: [] };
}
function isKey(s: unknown): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_KEY;
}
function isTs(n: unknown): n is number {
  return typeof n === 'number' && Math.floor(n) === n && n >= 0 && n <= MAX_TS;
}
function isAmount(v: unknown): v is bigint {
  return typeof v === 'bigint' && v > 0n && v <= MAX_AMOUNT;
}
function isStringMap(a: unknown, maxFields: number, maxLen: number): a is Record<string, string> {
  if (a === null || typeof a !== 'object' || Array.isArray(a)) return false;
  const e = Object.entries(a as Record<string, unknown>);
  return e.length <= maxFields && e.every(([k, v]) => k.length > 0 && k.length <= 64 && typeof v === 'string' && v.length <= maxLen);
}
function isAudit(a: unknown): boolean {
  return a === undefined || isStringMap(a, 32, 2_000);
}

/** True when `t` is a valid definition for an activity created at `ts` with an asset of the given existence. */
export function validTerms(t: ActivityTerms, ts: number, assetListed: boolean): boolean {
  if (t === null || typeof t !== 'object') return false;
  if (!ACTIVITY_KINDS.includes(t.kind) || !ACTIVITY_SCOPES.includes(t.scope) || !assetListed) return false;
  if (!isTs(t.startTs) || !isTs(t.endTs) || t.endTs <= t.startTs || t.endTs <= ts) return false;
  if (!isAmount(t.budget) || !Array.isArray(t.prizes) || typeof t.minDeposit !== 'bigint' || typeof t.bonus !== 'bigint') return false;
  if (t.kind === 'TRADING') {
    if (t.prizes.length === 0 || t.prizes.length > ACTIVITY_MAX_PRIZES || t.minDeposit !== 0n || t.bonus !== 0n) return false;
    let sum = 0n;
    let prev = MAX_AMOUNT;
    for (const p of t.prizes) {
      if (!isAmount(p) || p > prev) return false;
      prev = p;
      sum += p;
    }
    return sum <= t.budget;
  }
  return t.prizes.length === 0 && isAmount(t.minDeposit) && isAmount(t.bonus) && t.bonus <= t.budget;
}

interface Activity {
  activityId: string;
  terms: ActivityTerms;
  content: Record<string, string>;
  settled: boolean;
  paid: bigint;
  payouts: ActivityPayout[];
  createdTs: number;
  settledTs: number | null;
  /**
   * true once an operator ended the activity early: from that command on nothing counts and nobody joins, although
   * its endTs (the command's millisecond + 1) has not passed
   */
  closed: boolean;
  /** userId -> entry, in join order */
  entries: Map<string, ActivityEntry>;
}

/** Snapshot rows (bigints as decimal strings). */
export interface ActivitySnapshot {
  seq: number;
  progressSeq: number;
  activities: {
    activityId: string;
    terms: Omit<ActivityTerms, 'prizes' | 'budget' | 'minDeposit' | 'bonus'> & { prizes: string[]; budget: string; minDeposit: string; bonus: string };
    content: Record<string, string>;
    settled: boolean;
    paid: string;
    payouts: [string, number, string][];
    createdTs: number;
    settledTs: number | null;
    /** present (true) only when ended early */
    closed?: boolean;
    /** [userId, joinedTs, progress, reachedSeq, qualifiedSeq, joinSeq] in join order */
    entries: [string, number, string, number, number, number][];
  }[];
}

/** Rank order of TRADING entries: volume descending, then who reached it first, then who joined first. */
export function compareTrading(a: ActivityEntry, b: ActivityEntry): number {
  if (a.progress !== b.progress) return a.progress > b.progress ? -1 : 1;
  if (a.reachedSeq !== b.reachedSeq) return a.reachedSeq - b.reachedSeq;
  return a.joinSeq - b.joinSeq;
}

/** The command types the activities handle (the engine routes them here; `ActivityCommand` in types.ts is their union). */
export const ACTIVITY_COMMANDS = ['activityCreate', 'activityEnd', 'activityJoin', 'activitySettle'] as const satisfies readonly ActivityCommand['type'][];

/** The activities' state (see the file comment). */
export class ActivityState implements ActivityReads {
  private seq = 0;
  /** the engine's order of progress updates (tie-break of equal volumes) */
  private progressSeq = 0;
  private readonly byId = new Map<string, Activity>();
  /** activities not settled: the only ones `observe` looks at */
  private open: Activity[] = [];

  constructor(private readonly ledger: Ledger) {}

  get isEmpty(): boolean {
    return this.byId.size === 0;
  }

  /** Applies one activity command. */
  execute(cmd: ActivityCommand, host: ActivityHost): CommandResult {
    switch (cmd.type) {
      case 'activityCreate':
        return this.create(cmd, host);
      case 'activityEnd':
        return this.end(cmd, host);
      case 'activityJoin':
        return this.join(cmd, host);
      case 'activitySettle':
        return this.settle(cmd, host);
      default:
        return reject('invalid_order');
    }
  }

  private create(cmd: Extract<ActivityCommand, { type: 'activityCreate' }>, host: ActivityHost): CommandResult {
    const t = cmd.terms;
    if (!isKey(cmd.operatorId) || !isAudit(cmd.audit) || !isStringMap(cmd.content, ACTIVITY_MAX_CONTENT_FIELDS, ACTIVITY_MAX_TEXT))
      return reject('activity_invalid');
    if (t === null || typeof t !== 'object' || !validTerms(t, cmd.ts, host.hasAsset(t.asset) !== undefined)) return reject('activity_invalid');
    const a: Activity = {
      activityId: `${++this.seq}`,
      terms: {
        kind: t.kind,
        startTs: t.startTs,
        endTs: t.endTs,
        asset: t.asset,
        scope: t.scope,
        prizes: [...t.prizes],
        budget: t.budget,
        minDeposit: t.minDeposit,
        bonus: t.bonus,
      },
      content: { ...cmd.content },
      settled: false,
      paid: 0n,
      payouts: [],
      createdTs: cmd.ts,
      settledTs: null,
      closed: false,
      entries: new Map(),
    };
    this.byId.set(a.activityId, a);
    this.open.push(a);
    host.events.push({ type: 'activityChanged', ts: cmd.ts, activity: view(a), ...copyAudit(cmd.audit) });
    return { code: 'ok', events: host.events };
  }

  private end(cmd: Extract<ActivityCommand, { type: 'activityEnd' }>, host: ActivityHost): CommandResult {
    if (!isKey(cmd.operatorId) || !isAudit(cmd.audit)) return reject('activity_invalid');
    const a = this.byId.get(cmd.activityId);
    if (a === undefined) return reject('activity_not_found');
    if (a.settled || a.closed || cmd.ts >= a.terms.endTs) return reject('activity_ended');
    // The period becomes [start, ts + 1): what the journal holds before this command, in its millisecond too, was
    // counted and stays counted; `closed` stops everything after it. Ended before its start: an empty period.
    const end = cmd.ts + 1;
    a.terms.endTs = end;
    if (a.terms.startTs > cmd.ts) a.terms.startTs = end;
    a.closed = true;
    host.events.push({ type: 'activityChanged', ts: cmd.ts, activity: view(a), ...copyAudit(cmd.audit) });
    return { code: 'ok', events: host.events };
  }

  private join(cmd: Extract<ActivityCommand, { type: 'activityJoin' }>, host: ActivityHost): CommandResult {
    const a = this.byId.get(cmd.activityId);
    if (a === undefined) return reject('activity_not_found');
    if (!isKey(cmd.userId) || !host.isUser(cmd.userId)) return reject('user_not_found');
    if (cmd.ts < a.terms.startTs) return reject('activity_not_started');
    if (a.settled || a.closed || cmd.ts >= a.terms.endTs) return reject('activity_ended');
    if (a.entries.has(cmd.userId)) return reject('activity_already_joined');
    a.entries.set(cmd.userId, {
      activityId: a.activityId,
      userId: cmd.userId,
      joinedTs: cmd.ts,
      progress: 0n,
      reachedSeq: 0,
      qualifiedSeq: 0,
      joinSeq: a.entries.size + 1,
    });
    host.events.push({ type: 'activityJoined', ts: cmd.ts, activityId: a.activityId, userId: cmd.userId });
    return { code: 'ok', events: host.events };
  }

  private settle(cmd: Extract<ActivityCommand, { type: 'activitySettle' }>, host: ActivityHost): CommandResult {
    const a = this.byId.get(cmd.activityId);
    if (a === undefined) return reject('activity_not_found');
    if (a.settled) return { code: 'ok', events: [], duplicate: true };
    if (!a.closed && cmd.ts < a.terms.endTs) return reject('activity_not_ended');
    const t = a.terms;
    const payouts: ActivityPayout[] = [];
    if (t.kind === 'TRADING') {
      const ranked = this.ranking(a, t.prizes.length);
      ranked.forEach((e, i) => payouts.push({ userId: e.userId, rank: i + 1, amount: t.prizes[i] as bigint }));
    } else {
      let left = t.budget;
      for (const e of this.ranking(a, MAX_TS)) {
        if (left < t.bonus) break;
        payouts.push({ userId: e.userId, rank: payouts.length + 1, amount: t.bonus });
        left -= t.bonus;
      }
    }
    const from = this.ledger.account(ACTIVITY_PAYER, 'SYSTEM', t.asset);
    let paid = 0n;
    for (const p of payouts) {
      this.ledger.post(from, 'available', this.ledger.account(p.userId, 'ASSETS', t.asset), 'available', p.amount);
      paid += p.amount;
    }
    a.settled = true;
    a.paid = paid;
    a.payouts = payouts;
    a.settledTs = cmd.ts;
    this.open = this.open.filter((x) => x !== a);
    host.events.push({ type: 'activityChanged', ts: cmd.ts, activity: view(a) });
    return { code: 'ok', events: host.events };
  }

  /**
   * Counts progress from the events of an accepted command (called by the engine after every command that has
   * events, while some activity is not settled): fills for TRADING, chain deposits for DEPOSIT.
   */
  observe(events: readonly EngineEvent[], host: ActivityHost): void {
    if (this.open.length === 0) return;
    for (const ev of events) {
      if (ev.type === 'trade') {
        if (ev.makerUserId === ev.takerUserId) continue;
        const quote = host.spotQuote(ev.symbol);
        for (const a of this.open) {
          if (a.terms.kind !== 'TRADING' || a.terms.scope === 'CONTRACT' || quote !== a.terms.asset) continue;
          this.add(a, ev.makerUserId, ev.quoteAmount, ev.ts);
          this.add(a, ev.takerUserId, ev.quoteAmount, ev.ts);
        }
      } else if (ev.type === 'perpTrade') {
        if (ev.kind !== 'BOOK' || ev.makerUserId === ev.takerUserId) continue;
        const quote = host.perpQuote(ev.symbol);
        for (const a of this.open) {
          if (a.terms.kind !== 'TRADING' || a.terms.scope === 'SPOT' || quote !== a.terms.asset) continue;
          this.add(a, ev.makerUserId, ev.quoteAmount, ev.ts);
          this.add(a, ev.takerUserId, ev.quoteAmount, ev.ts);
        }
      } else if (ev.type === 'depositCredited') {
        const d = ev.deposit;
        for (const a of this.open) {
          if (a.terms.kind !== 'DEPOSIT' || d.asset !== a.terms.asset) continue;
          const e = this.add(a, d.userId, d.amount, ev.ts);
          if (e !== undefined && e.qualifiedSeq === 0 && e.progress >= a.terms.minDeposit) e.qualifiedSeq = e.reachedSeq;
        }
      }
    }
  }

  private add(a: Activity, userId: string, amount: bigint, ts: number): ActivityEntry | undefined {
    if (a.closed || ts < a.terms.startTs || ts >= a.terms.endTs || amount <= 0n) return undefined;
    const e = a.entries.get(userId);
    if (e === undefined) return undefined;
    e.progress += amount;
    e.reachedSeq = ++this.progressSeq;
    return e;
  }

  private ranking(a: Activity, limit: number): ActivityEntry[] {
    const out: ActivityEntry[] = [];
    if (a.terms.kind === 'TRADING') {
      for (const e of a.entries.values()) if (e.progress > 0n) out.push(e);
      out.sort(compareTrading);
    } else {
      for (const e of a.entries.values()) if (e.qualifiedSeq > 0) out.push(e);
      out.sort((x, y) => x.qualifiedSeq - y.qualifiedSeq);
    }
    return out.slice(0, Math.max(0, limit));
  }

  // ---- reads ----------------------------------------------------------------------------------------------------

  activity(activityId: string): ActivityView | undefined {
    const a = this.byId.get(activityId);
    return a === undefined ? undefined : view(a);
  }
  activities(): ActivityView[] {
    return [...this.byId.values()].reverse().map(view);
  }
  activityEntry(activityId: string, userId: string): ActivityEntry | undefined {
    const e = this.byId.get(activityId)?.entries.get(userId);
    return e === undefined ? undefined : { ...e };
  }
  activitiesOf(userId: string): { activity: ActivityView; entry: ActivityEntry }[] {
    const out: { activity: ActivityView; entry: ActivityEntry }[] = [];
    for (const a of [...this.byId.values()].reverse()) {
      const e = a.entries.get(userId);
      if (e !== undefined) out.push({ activity: view(a), entry: { ...e } });
    }
    return out;
  }
  activityRanking(activityId: string, limit: number): ActivityEntry[] {
    const a = this.byId.get(activityId);
    return a === undefined ? [] : this.ranking(a, limit).map((e) => ({ ...e }));
  }
  activityRank(activityId: string, userId: string): number {
    const a = this.byId.get(activityId);
    const e = a?.entries.get(userId);
    if (a === undefined || e === undefined) return 0;
    const ranked = this.ranking(a, MAX_TS);
    return ranked.indexOf(e) + 1;
  }

  // ---- snapshot -------------------------------------------------------------------------------------------------

  /** Canonical rows (activities in id order, entries in join order). */
  rows(): ActivitySnapshot {
    return {
      seq: this.seq,
      progressSeq: this.progressSeq,
      activities: [...this.byId.values()].map((a) => ({
        activityId: a.activityId,
        terms: {
          ...a.terms,
          prizes: a.terms.prizes.map(String),
          budget: a.terms.budget.toString(),
          minDeposit: a.terms.minDeposit.toString(),
          bonus: a.terms.bonus.toString(),
        },
        content: { ...a.content },
        settled: a.settled,
        paid: a.paid.toString(),
        payouts: a.payouts.map((p): [string, number, string] => [p.userId, p.rank, p.amount.toString()]),
        createdTs: a.createdTs,
        settledTs: a.settledTs,
        ...(a.closed ? { closed: true } : {}),
        entries: [...a.entries.values()].map((e): [string, number, string, number, number, number] => [
          e.userId,
          e.joinedTs,
          e.progress.toString(),
          e.reachedSeq,
          e.qualifiedSeq,
          e.joinSeq,
        ]),
      })),
    };
  }

  /** Restore from `rows()` output (possibly after a JSON round trip). Throws on a malformed snapshot. */
  static restore(s: ActivitySnapshot, ledger: Ledger): ActivityState {
    if (s === null || typeof s !== 'object' || !Array.isArray(s.activities)) throw new Error('restore: malformed activity state');
    const st = new ActivityState(ledger);
    st.seq = s.seq;
    st.progressSeq = s.progressSeq;
    for (const r of s.activities) {
      const a: Activity = {
        activityId: r.activityId,
        terms: {
          ...r.terms,
          prizes: r.terms.prizes.map((p) => BigInt(p)),
          budget: BigInt(r.terms.budget),
          minDeposit: BigInt(r.terms.minDeposit),
          bonus: BigInt(r.terms.bonus),
        },
        content: { ...r.content },
        settled: r.settled,
        paid: BigInt(r.paid),
        payouts: r.payouts.map(([userId, rank, amount]) => ({ userId, rank, amount: BigInt(amount) })),
        createdTs: r.createdTs,
        settledTs: r.settledTs,
        closed: r.closed === true,
        entries: new Map(),
      };
      for (const [userId, joinedTs, progress, reachedSeq, qualifiedSeq, joinSeq] of r.entries) {
        a.entries.set(userId, { activityId: a.activityId, userId, joinedTs, progress: BigInt(progress), reachedSeq, qualifiedSeq, joinSeq });
      }
      st.byId.set(a.activityId, a);
      if (!a.settled) st.open.push(a);
    }
    return st;
  }
}

function view(a: Activity): ActivityView {
  return {
    activityId: a.activityId,
    ...a.terms,
    prizes: [...a.terms.prizes],
    content: { ...a.content },
    state: a.settled ? 'SETTLED' : 'OPEN',
    closed: a.closed,
    participants: a.entries.size,
    paid: a.paid,
    payouts: a.payouts.map((p) => ({ ...p })),
    createdTs: a.createdTs,
    settledTs: a.settledTs,
  };
}

function copyAudit(a: Record<string, string> | undefined): { audit?: Record<string, string> } {
  return a === undefined ? {} : { audit: { ...a } };
}
