/** The common shape of the engines under test in the core-throughput benchmark. */
import type { Flow } from '../flow/flow';

/** Aggregated book levels, best first: [price ticks, qty lots]. */
export interface BookLevels {
  bids: [bigint, bigint][];
  asks: [bigint, bigint][];
}

/** One engine under test. `prepare` (not timed) builds a fresh book and funds the users; `run` (timed) replays the flow. */
export interface FlowAdapter {
  readonly name: string;
  prepare(flow: Flow): void;
  /** Replay every command of the flow; returns how many were rejected (by reason). */
  run(flow: Flow): Map<string, number>;
  /** Top `levels` levels per side after a run (for the sanity check against the flow's simulation). */
  depth(levels: number): BookLevels;
}

/** Compare the top `levels` of two books; returns a description of the first difference or null. */
export function diffBooks(a: BookLevels, b: BookLevels, levels: number): string | null {
  for (const side of ['bids', 'asks'] as const) {
    const x = a[side].slice(0, levels);
    const y = b[side].slice(0, levels);
    const n = Math.max(x.length, y.length);
    for (let i = 0; i < n; i++) {
      const p = x[i];
      const q = y[i];
      if (p === undefined || q === undefined || p[0] !== q[0] || p[1] !== q[1]) {
        return `${side}[${i}]: ${p === undefined ? '-' : `${p[0]}x${p[1]}`} vs ${q === undefined ? '-' : `${q[0]}x${q[1]}`}`;
      }
    }
  }
  return null;
}
