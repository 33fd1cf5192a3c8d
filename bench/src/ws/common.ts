/**
 * Shared pieces of the WebSocket fan-out benchmark (ws-fanout.ts): the clock every process stamps with, the latency
 * histogram the client processes fill, and the messages exchanged over the child processes' IPC channels.
 */

/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC through process.hrtime, the same clock in every
 * process of the machine, so a time taken in the server and one taken in a client process compare directly),
 * microsecond resolution.
 */
export function monoMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

/** Histogram resolution: buckets of 0.1 ms. */
export const BUCKET_MS = 0.1;
/** Buckets up to this latency; anything above is counted in the last bucket (and in `max` exactly). */
export const HIST_MAX_MS = 10_000;
const BUCKETS = Math.round(HIST_MAX_MS / BUCKET_MS) + 1;

/** A latency histogram (0.1 ms buckets up to 10 s) with the exact maximum and minimum. */
export interface Histogram {
  counts: number[];
  n: number;
  max: number;
  min: number;
}

/** An empty histogram. */
export function newHistogram(): Histogram {
  return { counts: new Array<number>(BUCKETS).fill(0), n: 0, max: -Infinity, min: Infinity };
}

/** Records one latency in ms (negative values, clock noise below a microsecond, count as 0). */
export function record(h: Histogram, ms: number): void {
  const i = Math.min(BUCKETS - 1, Math.max(0, Math.floor(ms / BUCKET_MS)));
  h.counts[i] = (h.counts[i] ?? 0) + 1;
  h.n++;
  if (ms > h.max) h.max = ms;
  if (ms < h.min) h.min = ms;
}

/** Adds `b` into `a`. */
export function merge(a: Histogram, b: Histogram): void {
  for (let i = 0; i < BUCKETS; i++) a.counts[i] = (a.counts[i] ?? 0) + (b.counts[i] ?? 0);
  a.n += b.n;
  a.max = Math.max(a.max, b.max);
  a.min = Math.min(a.min, b.min);
}

/** The q-quantile (0..1) in ms: the upper edge of the bucket holding it (so never below the true value). */
export function quantile(h: Histogram, q: number): number {
  if (h.n === 0) return NaN;
  const rank = Math.ceil(q * h.n);
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += h.counts[i] ?? 0;
    if (seen >= rank) return Math.min(h.max, (i + 1) * BUCKET_MS);
  }
  return h.max;
}

/** Parent -> client process. */
export type ToClients =
  /** Stop recording; compute latencies against the server's stamps and answer with a `result`. */
  { type: 'stamps'; depth: Array<[number, number]>; trades: Array<[number, number]>; from: number; to: number };

/** Client process -> parent. */
export type FromClients =
  | { type: 'connected'; sockets: number; failed: number; ms: number }
  | {
      type: 'result';
      hist: Histogram;
      /** Messages received in total (depth deltas + trades), and those whose events were stamped in the window. */
      received: number;
      measured: number;
      /** Depth deltas whose prevSeq was not the previous seq of the same socket (a skipped update). */
      gaps: number;
      /** Mid-stream depth snapshots (a resync after the server skipped a slow socket). */
      resyncs: number;
      /** Sockets the server closed, by close code. */
      closed: Record<string, number>;
    };

/** Parent -> server process. */
export type ToServer = { type: 'run'; warmupS: number; measureS: number; rate: number } | { type: 'exit' };

/** Server process -> parent. */
export type FromServer =
  | { type: 'ready'; port: number }
  | {
      type: 'done';
      depth: Array<[number, number]>;
      trades: Array<[number, number]>;
      from: number;
      to: number;
      submitted: number;
      rejected: number;
      /** Server CPU (user + system) over the measured window, in ms, and the window in ms. */
      cpuMs: number;
      windowMs: number;
      /** Event-loop delay p99 / max over the measured window (ms). */
      loopP99: number;
      loopMax: number;
      hub: Record<string, unknown>;
    };
