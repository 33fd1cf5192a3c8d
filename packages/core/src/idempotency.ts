/**
 * Idempotency keys of the engine, kept for a window of command time, independent of how many
 * ended orders the engine retains (the requirement "a retried command with the same client id
 * returns the first result" must hold after the order itself was forgotten).
 *
 * Four namespaces, each keyed by (userId, key): client order ids of accepted orders (value: the
 * order's sequence number), deposit refs and transfer client ids (value: 0), withdrawal client ids (value: the
 * withdrawal id's number). A key recorded by a
 * command with time `ts` (Unix ms) is valid for every later command with time < ts + windowMs.
 * Expired keys are removed by `evict(now)` in the order they were recorded (which is ts order,
 * since the sequencer assigns non-decreasing ts); `lookup` ignores a key that is expired but not yet
 * removed, so the answer never depends on when eviction ran. The engine calls `evict` only after a
 * command that changed the state, so a rejected command (or a retry) changes nothing.
 */

/**
 * Namespace of an idempotency key: KEY_ORDER (userId, clientOrderId) of an accepted placeOrder,
 * KEY_DEPOSIT (userId, ref) of an accepted deposit, KEY_TRANSFER (userId, clientId) of an accepted transfer.
 */
export type KeyKind = 0 | 1 | 2 | 3 | 4 | 5 | 6;
/** Longest accepted idempotency key, id or reference (a deposit ref, a transfer or withdrawal clientId; characters). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
/** (userId, clientOrderId) of an accepted placeOrder; the entry's seq is the order's sequence number. */
export const KEY_ORDER: KeyKind = 0;
/** (userId, ref) of an accepted deposit. */
export const KEY_DEPOSIT: KeyKind = 1;
/** (userId, clientId) of an accepted transfer. */
export const KEY_TRANSFER: KeyKind = 2;
/** (userId, clientId) of an accepted requestWithdrawal; the entry's seq is the withdrawal id's number. */
export const KEY_WITHDRAW: KeyKind = 3;
/** (userId, clientOrderId) of an accepted perpPlaceOrder; the entry's seq is the order's sequence number. */
export const KEY_PERP_ORDER: KeyKind = 4;
/** (userId, clientId) of an accepted otcPublishAd; the entry's seq is the ad id's number. */
export const KEY_OTC_AD: KeyKind = 5;
/** (userId, clientId) of an accepted otcTakeAd; the entry's seq is the OTC order id's number. */
export const KEY_OTC_ORDER: KeyKind = 6;

/** One recorded key (shared by the lookup map and the expiry queue). */
export interface KeyEntry {
  kind: KeyKind;
  userId: string;
  key: string;
  /** command time that recorded the key (Unix ms) */
  ts: number;
  /** order sequence number for KEY_ORDER, withdrawal id number for KEY_WITHDRAW, else 0 */
  seq: number;
}

/** Snapshot row of a key: [kind, userId, key, ts, seq]. */
export type KeyRow = [number, string, string, number, number];

/** Default idempotency window: 24 hours of command time (ms). */
export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 86_400_000;

/** The keys of the three namespaces with one expiry queue (see the file comment). */
export class KeyWindow {
  /** per kind: userId -> key -> entry */
  private readonly maps: Map<string, Map<string, KeyEntry>>[] = [new Map(), new Map(), new Map(), new Map(), new Map(), new Map(), new Map()];
  /** entries in recording order from `head` (stale entries, replaced in the map, are skipped) */
  private queue: (KeyEntry | undefined)[] = [];
  private head = 0;

  /** `windowMs`: how long (command time, ms) a key stays valid; a non-negative safe integer. */
  constructor(readonly windowMs: number) {}

  /** The live entry of (kind, userId, key) for a command at time `now`, or undefined (absent or expired). */
  lookup(kind: KeyKind, userId: string, key: string, now: number): KeyEntry | undefined {
    const e = this.maps[kind]!.get(userId)?.get(key);
    return e !== undefined && e.ts + this.windowMs > now ? e : undefined;
  }

  /** Record a key (replacing an expired entry of the same key, if any). */
  add(kind: KeyKind, userId: string, key: string, ts: number, seq: number): void {
    const m = this.maps[kind]!;
    let u = m.get(userId);
    if (u === undefined) {
      u = new Map();
      m.set(userId, u);
    }
    const e: KeyEntry = { kind, userId, key, ts, seq };
    u.set(key, e);
    this.queue.push(e);
  }

  /** Remove keys recorded at or before `now - windowMs`, oldest first (stops at the first live one). */
  evict(now: number): void {
    const q = this.queue;
    let h = this.head;
    if (h >= q.length || (q[h] as KeyEntry).ts + this.windowMs > now) return;
    do {
      const e = q[h] as KeyEntry;
      q[h++] = undefined;
      const u = this.maps[e.kind]!.get(e.userId);
      if (u !== undefined && u.get(e.key) === e) {
        u.delete(e.key);
        if (u.size === 0) this.maps[e.kind]!.delete(e.userId);
      }
    } while (h < q.length && (q[h] as KeyEntry).ts + this.windowMs <= now);
    if (h === q.length) {
      this.queue = [];
      h = 0;
    } else if (h >= 1024 && h * 2 >= q.length) {
      this.queue = q.slice(h);
      h = 0;
    }
    this.head = h;
  }

  /** Number of recorded (not yet evicted) keys. */
  size(): number {
    let n = 0;
    for (const m of this.maps) for (const u of m.values()) n += u.size;
    return n;
  }

  /** Recorded keys in recording order (canonical: equal histories give equal rows). */
  rows(): KeyRow[] {
    const out: KeyRow[] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const e = this.queue[i] as KeyEntry;
      if (this.maps[e.kind]!.get(e.userId)?.get(e.key) === e) out.push([e.kind, e.userId, e.key, e.ts, e.seq]);
    }
    return out;
  }

  /** Re-add rows from `rows()` (restore). Throws on a malformed row. */
  restoreRows(rows: KeyRow[]): void {
    for (const r of rows) {
      const [kind, userId, key, ts, seq] = r;
      if (
        typeof kind !== 'number' ||
        Math.floor(kind) !== kind ||
        kind < 0 ||
        kind > 6 ||
        typeof userId !== 'string' ||
        typeof key !== 'string' ||
        typeof ts !== 'number' ||
        typeof seq !== 'number'
      ) {
        throw new Error('restore: malformed idempotency key row');
      }
      this.add(kind as KeyKind, userId, key, ts, seq);
    }
  }
}
