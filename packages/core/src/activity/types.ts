/**
 * Activities (campaigns): the part of the engine contract that decides who is paid what. Everything that a
 * payout depends on is engine state, built from the journal, so a payout is exact and the same on every replay:
 * - the definition (kind, period, prize asset, prize table, budget, deposit threshold and bonus), set by an operator
 *   through `activityCreate`, with its texts (`content`: titles, rules, banner) so the journal alone rebuilds it;
 * - who joined and when (`activityJoin`, only within [startTs, endTs));
 * - each participant's progress, counted by the engine itself from the events of the commands it executes (not from
 *   the database projection): a TRADING activity counts the quote volume of the participant's fills, a DEPOSIT
 *   activity the chain deposits credited to the participant;
 * - the payout (`activitySettle`), a journaled command accepted once the period is over; it pays from the system
 *   account '@marketing' to the winners' ASSETS accounts and marks the activity SETTLED, so a second settle (a job run
 *   twice, a restart that replays the journal and runs the job again) pays nothing (code 'ok', `duplicate` true).
 *
 * Progress rules (documented in docs/activities.md):
 * - TRADING volume = the quote amount of each fill, in the prize asset's units (USDT), counted for the maker and the
 *   taker separately when each has joined; spot fills of markets quoted in the prize asset (scope SPOT or ALL) and
 *   perpetual BOOK fills of markets settled in it (scope CONTRACT or ALL); liquidation take-overs and ADL are not
 *   trading; a fill between one user's own orders (maker = taker) counts for nothing (wash trading). Only fills with
 *   startTs <= ts < endTs and after the user joined count.
 * - DEPOSIT: the sum of chain deposits (creditDeposit) of the prize asset credited within the period after joining;
 *   the user qualifies when the sum reaches `minDeposit`.
 * Ranking (TRADING): volume descending; equal volumes by who reached that volume first (the engine's order of
 * progress updates, `reachedSeq`), then by who joined first. Participants with no volume are not ranked. Prize i
 * (i = 0 ...) goes to rank i + 1; unclaimed prizes stay with '@marketing'.
 * DEPOSIT payout: `bonus` to each qualified participant in the order they qualified, while the budget lasts
 * (floor(budget / bonus) users at most).
 */

interface Base {
  /** Unix ms, assigned by the sequencer. */
  ts: number;
}

/** What an activity rewards: trading volume (a competition with a prize table) or a deposit (a fixed bonus). */
export type ActivityKind = 'TRADING' | 'DEPOSIT';
export const ACTIVITY_KINDS: readonly ActivityKind[] = ['TRADING', 'DEPOSIT'];
/** Which fills a TRADING activity counts. */
export type ActivityScope = 'SPOT' | 'CONTRACT' | 'ALL';
export const ACTIVITY_SCOPES: readonly ActivityScope[] = ['SPOT', 'CONTRACT', 'ALL'];
/** The system account prizes and bonuses are paid from (it may go negative: it stands for the marketing budget). */
export const ACTIVITY_PAYER = '@marketing';
/** Longest prize table. */
export const ACTIVITY_MAX_PRIZES = 100;
/** Largest text of `content` (characters per field) and number of fields. */
export const ACTIVITY_MAX_TEXT = 8_000;
export const ACTIVITY_MAX_CONTENT_FIELDS = 16;

/** The money-relevant definition of an activity (amounts in the prize asset's smallest unit). */
export interface ActivityTerms {
  kind: ActivityKind;
  /** the period: joining, counting and payout rules apply to startTs <= ts < endTs (Unix ms) */
  startTs: number;
  endTs: number;
  /** the prize asset, also the unit of TRADING volume and of the DEPOSIT threshold (a listed asset, e.g. USDT) */
  asset: string;
  /** TRADING: which fills count */
  scope: ActivityScope;
  /** TRADING: prize of rank 1, 2, ... (each > 0, non-increasing, at most ACTIVITY_MAX_PRIZES); DEPOSIT: [] */
  prizes: bigint[];
  /** the most the activity may pay: TRADING needs sum(prizes) <= budget; DEPOSIT needs bonus <= budget */
  budget: bigint;
  /** DEPOSIT: the deposit sum that qualifies (> 0); TRADING: 0n */
  minDeposit: bigint;
  /** DEPOSIT: the bonus of each qualified participant (> 0); TRADING: 0n */
  bonus: bigint;
}

/** ONGOING/UPCOMING/ENDED follow from the time; SETTLED once the payout ran. */
export type ActivityState = 'OPEN' | 'SETTLED';

/** One payout of a settled activity. `rank`: TRADING rank (1 ...), DEPOSIT order of qualifying (1 ...). */
export interface ActivityPayout {
  userId: string;
  rank: number;
  amount: bigint;
}

/** An activity as the engine sees it. */
export interface ActivityView extends ActivityTerms {
  activityId: string;
  /** the server's texts (titleZh, titleEn, rulesZh, rulesEn, banner ...), opaque to the engine */
  content: Record<string, string>;
  state: ActivityState;
  /** ended early by an operator: nothing counts or joins any more and it can be settled, though endTs (+1 ms) may be ahead */
  closed: boolean;
  participants: number;
  /** sum paid (0n before the settle) */
  paid: bigint;
  payouts: ActivityPayout[];
  createdTs: number;
  settledTs: number | null;
}

/** A participant's progress. `progress`: TRADING volume or DEPOSIT sum, in asset units. */
export interface ActivityEntry {
  activityId: string;
  userId: string;
  joinedTs: number;
  progress: bigint;
  /** the engine's order of the last progress update (0 before any): the tie-break of equal volumes */
  reachedSeq: number;
  /** DEPOSIT: when the user qualified (order), or 0 */
  qualifiedSeq: number;
  /** order of joining within the activity (1 ...) */
  joinSeq: number;
}

/** The activity commands. Every rejection changes nothing. */
export type ActivityCommand =
  /** An operator defines an activity; the engine assigns its id ("1", "2", ...). activity_invalid when a rule fails. */
  | (Base & { type: 'activityCreate'; terms: ActivityTerms; content: Record<string, string>; operatorId: string; audit?: Record<string, string> })
  /**
   * An operator ends an activity early at `ts` (activity_ended when it has ended already): what was journaled before
   * this command counts, in its millisecond too, and nothing after it (no progress, no joins); endTs becomes ts + 1,
   * so the period [startTs, endTs) holds exactly what counted, and it can be settled at once. An activity ended
   * before it started gets the empty period [ts + 1, ts + 1) and no participants (none could join).
   */
  | (Base & { type: 'activityEnd'; activityId: string; operatorId: string; audit?: Record<string, string> })
  /** A user joins: activity_not_started before startTs, activity_ended from endTs, activity_already_joined the second time. */
  | (Base & { type: 'activityJoin'; activityId: string; userId: string })
  /** Pays the activity (ts >= endTs or ended early, else activity_not_ended); once: a repeat is 'ok' with no events and `duplicate`. */
  | (Base & { type: 'activitySettle'; activityId: string });

export type ActivityCommandType = ActivityCommand['type'];
export const ACTIVITY_COMMAND_TYPES: readonly ActivityCommandType[] = ['activityCreate', 'activityEnd', 'activityJoin', 'activitySettle'];

/** The activity events. Progress is not an event (it follows every fill): read it from the engine. */
export type ActivityEvent =
  /** created, ended early or settled: the activity after the change (audit: the operator's record, if any) */
  | { type: 'activityChanged'; ts: number; activity: ActivityView; audit?: Record<string, string> }
  | { type: 'activityJoined'; ts: number; activityId: string; userId: string };

/** Reads of the activities (part of EngineApi). */
export interface ActivityReads {
  /** An activity, or undefined. */
  activity(activityId: string): ActivityView | undefined;
  /** Every activity, newest first. */
  activities(): ActivityView[];
  /** A participant's entry, or undefined when the user has not joined. */
  activityEntry(activityId: string, userId: string): ActivityEntry | undefined;
  /** The activities a user joined, newest first, with the entry. */
  activitiesOf(userId: string): { activity: ActivityView; entry: ActivityEntry }[];
  /**
   * TRADING: the ranked participants (progress > 0) in rank order, at most `limit`; DEPOSIT: the qualified
   * participants in the order they qualified. Empty for an unknown activity.
   */
  activityRanking(activityId: string, limit: number): ActivityEntry[];
  /** The rank (1 ...) of a user in activityRanking's order, or 0 when not ranked. */
  activityRank(activityId: string, userId: string): number;
}
