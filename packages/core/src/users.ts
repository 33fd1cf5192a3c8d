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
 */

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
}
