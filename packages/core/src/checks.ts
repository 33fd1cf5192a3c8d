/**
 * The input checks every domain's commands share (the engine's and the wallet's): the engine validates each command's
 * fields itself, since commands come from the journal and the servers as plain data.
 */

/** Largest safe integer (2^53 - 1): block numbers, nonces, times. */
export const MAX_SAFE = 9_007_199_254_740_991;

/** True when `n` is an integer (a JS number) in 0..max. */
export function isNonNegInt(n: unknown, max: number): boolean {
  return typeof n === 'number' && n >= 0 && n <= max && Math.floor(n) === n;
}

/** True when `s` is a non-empty string of at most `max` characters (an id, key or reference). */
export function isKey(s: unknown, max: number): s is string {
  return typeof s === 'string' && s.length > 0 && s.length <= max;
}
