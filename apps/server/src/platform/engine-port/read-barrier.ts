/**
 * Waiting for a replica to reach a stream sequence number (scale-out mode, ARCHITECTURE.md section 4): the two
 * primitives of read-your-writes across gateways.
 *
 * - SeqGate: the sequence number a replica has applied, and promises that resolve when it reaches a target,
 *   driven by `advance` (called by the replica after each applied message), never by polling.
 * - freshReader: a coalesced "read the stream's last sequence number" whose every answer was read from the server
 *   after the caller asked (the read barrier's target), with at most one request in flight plus one queued.
 */

/**
 * What the scale-out engine port (nats-engine-port.ts) offers for read-your-writes across gateways; the embedded host
 * has none (its one engine is the one every command is applied to before it is answered).
 */
export interface ReadBarrier {
  /** Sequence number of the last stream message this replica applied. */
  readonly appliedSeq: number;
  /**
   * Resolves once this replica has applied every message the stream held when the call was made, so every command
   * acknowledged by any gateway before the call is reflected. Throws AppError 503 `replica_behind` when that takes
   * longer than `timeoutMs` (ms, the whole call: the stream's answer and the wait), or when the stream cannot be
   * asked (connection down, port closing).
   */
  streamBarrier(timeoutMs: number): Promise<void>;
}

interface GateWaiter {
  seq: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout | null;
}

/**
 * The applied sequence number of one replica and the callers waiting for it to reach theirs. Waiters are kept sorted
 * by target, so `advance` wakes the due ones from the front (O(woken)) and leaves the others untouched.
 */
export class SeqGate {
  private appliedSeq: number;
  /** Sorted by `seq` ascending (ties in arrival order). */
  private waiters: GateWaiter[] = [];

  /** Starts at `applied` (the replica's sequence number after its recovery; 0 = nothing applied). */
  constructor(applied = 0) {
    this.appliedSeq = applied;
  }

  /** The sequence number applied so far. */
  get applied(): number {
    return this.appliedSeq;
  }

  /** Callers still waiting (metrics and tests). */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Records that the replica has applied every message up to `seq` (a lower or equal value changes nothing) and
   * resolves with true every wait whose target is now reached.
   */
  advance(seq: number): void {
    if (seq <= this.appliedSeq) return;
    this.appliedSeq = seq;
    let due = 0;
    while (due < this.waiters.length && this.waiters[due]!.seq <= seq) due++;
    if (due === 0) return;
    for (const w of this.waiters.splice(0, due)) {
      if (w.timer !== null) clearTimeout(w.timer);
      w.resolve(true);
    }
  }

  /**
   * Resolves true once `seq` is applied (at once, synchronously settled, when it already is), or false when
   * `timeoutMs` passes first (no timeout when omitted). Never rejects.
   */
  wait(seq: number, timeoutMs?: number): Promise<boolean> {
    if (seq <= this.appliedSeq) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const w: GateWaiter = { seq, resolve, timer: null };
      let i = this.waiters.length;
      while (i > 0 && this.waiters[i - 1]!.seq > seq) i--;
      this.waiters.splice(i, 0, w);
      if (timeoutMs !== undefined) {
        w.timer = setTimeout(() => {
          const at = this.waiters.indexOf(w);
          if (at >= 0) this.waiters.splice(at, 1);
          resolve(false);
        }, timeoutMs);
      }
    });
  }

  /** Resolves every waiter with false (the replica is closing). */
  close(): void {
    for (const w of this.waiters.splice(0, this.waiters.length)) {
      if (w.timer !== null) clearTimeout(w.timer);
      w.resolve(false);
    }
  }
}

/**
 * Wraps `read` (one request to the server, e.g. the stream's last sequence number) so that every caller gets a value
 * read by a request sent after the call, while concurrent callers share requests: when none is in flight, the call
 * sends one; when one is in flight (sent before this call, so its answer may predate what the caller must see), the
 * call joins the next request, sent as soon as the one in flight settles. At most one request is in flight, however
 * many callers. A failed request rejects every caller that joined it.
 */
export function freshReader<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight = false;
  let queued: { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } | null = null;
  function send(): Promise<T> {
    inFlight = true;
    let p: Promise<T>;
    try {
      p = read();
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(settled, settled);
    return p;
  }
  /** The request in flight settled: the queued callers' request goes out now (so still one in flight at most). */
  function settled(): void {
    inFlight = false;
    if (queued === null) return;
    const q = queued;
    queued = null;
    send().then(q.resolve, q.reject);
  }
  return () => {
    if (!inFlight) return send();
    if (queued === null) {
      let resolve!: (v: T) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      queued = { promise, resolve, reject };
    }
    return queued.promise;
  };
}
