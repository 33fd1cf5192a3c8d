/**
 * The seeded bridge that fills the inside of one bar: a piecewise Brownian bridge from the open to the bar's
 * two extremes (high and low, in a seeded order, at seeded times) and on to the close. Floats are fine here:
 * this simulates an outside market; prices leave the model as decimal strings.
 */
import { Prng } from './prng';

/** One bar of a simulated or replayed series; prices in quote currency, volume in base coin (floats). */
export interface SimBar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Knot values of the path inside one bar: `knots + 1` values at equal spacing, value[0] = open,
 * value[knots] = close, every value inside [low, high], and (for a bar with high > low and knots >= 3) the high
 * and the low each hit exactly once at a pinned knot. Deterministic for a given seed.
 * The high comes first with probability 0.65 on a falling bar and 0.35 on a rising or flat one.
 */
export function bridgeKnots(bar: SimBar, knots: number, seed: number): Float64Array {
  const out = new Float64Array(knots + 1);
  const { open, high, low, close } = bar;
  if (!(high > low) || knots < 3) {
    for (let j = 0; j <= knots; j++) out[j] = clamp(open + ((close - open) * j) / knots, low, high);
    out[0] = open;
    out[knots] = close;
    return out;
  }
  const rng = new Prng(seed);
  const highFirst = rng.next() < (close < open ? 0.65 : 0.35);
  const e1 = highFirst ? high : low;
  const e2 = highFirst ? low : high;
  const t1 = rng.nextInt(1, knots - 2);
  const t2 = rng.nextInt(t1 + 1, knots - 1);
  // Noise per knot such that a free walk over the whole bar would have a spread of about half the bar's range.
  const sigma = ((high - low) * 0.5) / Math.sqrt(knots);
  const walk = new Float64Array(knots + 1);
  const segment = (a: number, b: number, va: number, vb: number) => {
    const n = b - a;
    walk[0] = 0;
    for (let j = 1; j <= n; j++) walk[j] = (walk[j - 1] as number) + rng.nextGaussian();
    const wn = walk[n] as number;
    for (let j = 1; j < n; j++) {
      const x = va + ((vb - va) * j) / n + sigma * ((walk[j] as number) - (wn * j) / n);
      out[a + j] = reflect(x, low, high);
    }
    out[a] = va;
    out[b] = vb;
  };
  segment(0, t1, open, e1);
  segment(t1, t2, e1, e2);
  segment(t2, knots, e2, close);
  return out;
}

/** Keeps x inside [lo, hi] by reflecting once at each edge, then clamping. */
function reflect(x: number, lo: number, hi: number): number {
  let v = x;
  if (v > hi) v = 2 * hi - v;
  if (v < lo) v = 2 * lo - v;
  return clamp(v, lo, hi);
}

/** x limited to [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
