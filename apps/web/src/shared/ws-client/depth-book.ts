/**
 * Order-book state built from the WebSocket depth channel (packages/api ws.ts): a 'snapshot'
 * replaces the book, each 'delta' must have prevSeq equal to the last seq, else the book is out of
 * sync (gap) and the caller re-subscribes. Delta rows carry the new total quantity of a price
 * level; "0" removes it. Prices compare as decimal strings (no floats).
 */
import { compareDecimal, isZeroDecimal } from '../format';

/** [price, quantity] decimal strings. */
export type DepthLevel = [string, string];

/** A sorted book: bids best (highest) first, asks best (lowest) first. */
export interface DepthState {
  seq: number;
  bids: DepthLevel[];
  asks: DepthLevel[];
}

/** Result of applying one message: the new state, or 'gap' when a delta does not follow on. */
export type ApplyResult = { ok: true; state: DepthState } | { ok: false; reason: 'gap' };

function merge(levels: DepthLevel[], changes: readonly (readonly [string, string])[], desc: boolean): DepthLevel[] {
  const map = new Map<string, string>(levels.map(([p, q]) => [p, q]));
  // Normalise price keys so "100.0" and "100.00" are the same level.
  const norm = (p: string) => {
    for (const k of map.keys()) if (compareDecimal(k, p) === 0) return k;
    return p;
  };
  for (const [p, q] of changes) {
    const key = norm(p);
    if (isZeroDecimal(q)) map.delete(key);
    else map.set(key, q);
  }
  const out = [...map.entries()] as DepthLevel[];
  out.sort((a, b) => (desc ? compareDecimal(b[0], a[0]) : compareDecimal(a[0], b[0])));
  return out;
}

/**
 * Applies a depth message to `prev` (null before the first snapshot). A delta with no previous book
 * or with prevSeq !== prev.seq is a gap.
 */
export function applyDepth(
  prev: DepthState | null,
  msg: {
    kind: 'snapshot' | 'delta';
    seq: number;
    prevSeq: number;
    data: { bids: readonly (readonly [string, string])[]; asks: readonly (readonly [string, string])[] };
  },
): ApplyResult {
  if (msg.kind === 'snapshot') {
    return { ok: true, state: { seq: msg.seq, bids: merge([], msg.data.bids, true), asks: merge([], msg.data.asks, false) } };
  }
  if (!prev || msg.prevSeq !== prev.seq) return { ok: false, reason: 'gap' };
  return { ok: true, state: { seq: msg.seq, bids: merge(prev.bids, msg.data.bids, true), asks: merge(prev.asks, msg.data.asks, false) } };
}
