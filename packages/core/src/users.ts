/**
 * The user registry of the engine: the ids that key balances, assigned from the journal (ARCHITECTURE.md
 * section 2, "Ids that key balances ... are assigned by the engine from the journal, never by a database sequence").
 *
 * A registration carries the user's unique keys (the account, e.g. "mail:a@b.c" or "phone:86:13800000000",
 * and any other unique value such as the public UID or the invitation code) and a profile of string fields
 * that the engine stores but does not interpret (the server keeps e-mail, phone, password hash, nickname ...
 * there, so that a lost or rolled-back database is rebuilt from the journal and its snapshots, and a new
 * registrant can never be given an old user's id). Ids are "1", "2", ... in registration order.
 *
 * The engine reads one profile field: `frozen` = '1' (set by the operator console) makes the user's placeOrder and
 * transfer fail with account_frozen; cancelOrder stays allowed. Unique keys can be added later (updateUser
 * `addKeys`, e.g. a second address bound in the account centre); they are never removed.
 *
 * The registry is the users' state machine: the engine routes registerUser and updateUser here (`execute`; their
 * rules in types.ts).
 */
import type { Command, CommandResult, EngineEvent, RejectCode } from './types';

/** The command types the registry handles (the engine routes them here); `UserCommand` is their union. */
export const USER_COMMANDS = ['registerUser', 'updateUser'] as const satisfies readonly Command['type'][];
/** The users' commands (types.ts has their rules). */
export type UserCommand = Extract<Command, { type: (typeof USER_COMMANDS)[number] }>;

/** Every rejection registerUser and updateUser may answer: a closed list, the compiler refuses any other here. */
export const USER_REJECT_CODES = [
  'invalid_config',
  'account_exists',
  'user_key_taken',
  'user_not_found',
  'user_field_mismatch',
] as const satisfies readonly RejectCode[];
/** A users' command's rejection (USER_REJECT_CODES). */
export type UserRejectCode = (typeof USER_REJECT_CODES)[number];

function rejectUser(code: UserRejectCode): CommandResult {
  return { code, events: [] };
}

/** One registered user. `profile` is opaque to the engine (string fields only). */
export interface UserRecord {
  userId: string;
  /** The account key; unique. */
  account: string;
  /** Further unique keys (e.g. "uuid:12345678", "wel:ABCDEF"); unique across all users and accounts. */
  uniqueKeys: string[];
  profile: Record<string, string>;
}

/** Snapshot row of a user: [userId, account, uniqueKeys, profile]. */
export type UserRow = [string, string, string[], Record<string, string>];

/** Longest accepted key (account or unique key), characters. */
export const MAX_USER_KEY_LENGTH = 256;
/** Most unique keys per user (besides the account): registration's few plus a bound e-mail and phone (updateUser addKeys). */
export const MAX_USER_KEYS = 8;
/** Most profile fields per user, and the longest field name / value (characters). */
export const MAX_PROFILE_FIELDS = 32;
export const MAX_PROFILE_NAME_LENGTH = 64;
export const MAX_PROFILE_VALUE_LENGTH = 4096;

/** True when `k` is a usable key: a non-empty string of at most MAX_USER_KEY_LENGTH characters. */
export function isUserKey(k: unknown): k is string {
  return typeof k === 'string' && k.length > 0 && k.length <= MAX_USER_KEY_LENGTH;
}

/** True when `p` is a plain object of at most MAX_PROFILE_FIELDS string fields within the length limits. */
export function isProfile(p: unknown): p is Record<string, string> {
  if (p === null || typeof p !== 'object' || Array.isArray(p)) return false;
  const entries = Object.entries(p as Record<string, unknown>);
  if (entries.length > MAX_PROFILE_FIELDS) return false;
  for (const [k, v] of entries) {
    if (k.length === 0 || k.length > MAX_PROFILE_NAME_LENGTH || typeof v !== 'string' || v.length > MAX_PROFILE_VALUE_LENGTH) return false;
  }
  return true;
}

/** Users by id and by key; the id counter. */
export class UserRegistry {
  private seq = 0;
  private readonly byId = new Map<string, UserRecord>();
  /** Every key (accounts and unique keys) -> user id. */
  private readonly byKey = new Map<string, string>();

  /** Number of users ever registered (= the last id handed out). */
  get lastId(): number {
    return this.seq;
  }

  /** The owner of a key, or undefined. */
  ownerOf(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** A user by id, or undefined. */
  get(userId: string): UserRecord | undefined {
    return this.byId.get(userId);
  }

  /** Adds a user with the next id; the caller checked that no key is taken. Returns the record. */
  add(account: string, uniqueKeys: string[], profile: Record<string, string>): UserRecord {
    const userId = `${++this.seq}`;
    const rec: UserRecord = { userId, account, uniqueKeys: [...uniqueKeys], profile: { ...profile } };
    this.byId.set(userId, rec);
    this.byKey.set(account, userId);
    for (const k of uniqueKeys) this.byKey.set(k, userId);
    return rec;
  }

  /** Adds unique keys to a user (updateUser addKeys); the caller checked that none is taken. */
  addKeys(rec: UserRecord, keys: readonly string[]): void {
    for (const k of keys) {
      rec.uniqueKeys.push(k);
      this.byKey.set(k, rec.userId);
    }
  }

  /** Rows in id order, for snapshots. */
  rows(): UserRow[] {
    return [...this.byId.values()].map((u) => [u.userId, u.account, [...u.uniqueKeys], { ...u.profile }]);
  }

  /** Rebuilds from `rows()` output and the id counter. */
  restore(lastId: number, rows: readonly UserRow[]): void {
    this.seq = lastId;
    for (const [userId, account, keys, profile] of rows) {
      const rec: UserRecord = { userId, account, uniqueKeys: [...keys], profile: { ...profile } };
      this.byId.set(userId, rec);
      this.byKey.set(account, userId);
      for (const k of keys) this.byKey.set(k, userId);
    }
  }

  /** Applies registerUser or updateUser, appending its event to `events` (the command's); rejections change nothing. */
  execute(cmd: UserCommand, events: EngineEvent[]): CommandResult {
    return cmd.type === 'registerUser' ? this.registerUser(cmd, events) : this.updateUser(cmd, events);
  }

  private registerUser(cmd: Extract<Command, { type: 'registerUser' }>, events: EngineEvent[]): CommandResult {
    const { account, uniqueKeys, profile } = cmd;
    if (!isUserKey(account) || !Array.isArray(uniqueKeys) || uniqueKeys.length > MAX_USER_KEYS || !uniqueKeys.every(isUserKey) || !isProfile(profile)) {
      return rejectUser('invalid_config');
    }
    if (new Set([account, ...uniqueKeys]).size !== uniqueKeys.length + 1) return rejectUser('invalid_config');
    if (this.ownerOf(account) !== undefined) return rejectUser('account_exists');
    for (const k of uniqueKeys) if (this.ownerOf(k) !== undefined) return rejectUser('user_key_taken');
    const u = this.add(account, uniqueKeys, profile);
    events.push({ type: 'userRegistered', ts: cmd.ts, userId: u.userId, account, uniqueKeys: [...uniqueKeys], profile: { ...profile } });
    return { code: 'ok', events, userId: u.userId };
  }

  private updateUser(cmd: Extract<Command, { type: 'updateUser' }>, events: EngineEvent[]): CommandResult {
    const { userId, profile, expect, addKeys, audit } = cmd;
    if (typeof userId !== 'string' || !isProfile(profile) || (expect !== undefined && !isProfile(expect))) return rejectUser('invalid_config');
    if (audit !== undefined && !isProfile(audit)) return rejectUser('invalid_config');
    if (addKeys !== undefined && (!Array.isArray(addKeys) || !addKeys.every(isUserKey) || new Set(addKeys).size !== addKeys.length)) {
      return rejectUser('invalid_config');
    }
    const u = this.get(userId);
    if (u === undefined) return rejectUser('user_not_found');
    if (expect !== undefined) {
      for (const [k, v] of Object.entries(expect)) if ((u.profile[k] ?? '') !== v) return rejectUser('user_field_mismatch');
    }
    if (Object.keys({ ...u.profile, ...profile }).length > MAX_PROFILE_FIELDS) return rejectUser('invalid_config');
    // Keys the user owns already (the account or a unique key) are no-ops; the rest must be free.
    const added = (addKeys ?? []).filter((k) => this.ownerOf(k) !== userId);
    if (u.uniqueKeys.length + added.length > MAX_USER_KEYS) return rejectUser('invalid_config');
    for (const k of added) if (this.ownerOf(k) !== undefined) return rejectUser('user_key_taken');
    this.addKeys(u, added);
    Object.assign(u.profile, profile);
    const ev: Extract<EngineEvent, { type: 'userUpdated' }> = { type: 'userUpdated', ts: cmd.ts, userId, profile: { ...u.profile } };
    if (added.length > 0) ev.addedKeys = added;
    if (audit !== undefined) ev.audit = { ...audit };
    events.push(ev);
    return { code: 'ok', events, userId };
  }
}
