/**
 * Seeded, stateless randomness for the simulated outside market. Nothing here uses Math.random: every
 * value is a pure function of its seed, so a price path is the same on every run and every machine.
 */

/** 32-bit FNV-1a hash of a string (e.g. a coin code), used to derive seeds. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes integers into one 32-bit seed (murmur3 finaliser per step). Inputs are taken modulo 2^32. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    // Both 32-bit halves of a (safe) integer go in, so indices beyond 2^32 never collide.
    h = mix32(h ^ (p >>> 0));
    h = mix32(h ^ (Math.floor(p / 4294967296) >>> 0));
  }
  return h >>> 0;
}

/** murmur3's 32-bit finaliser. */
function mix32(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seeded PRNG (mulberry32). `next()` returns a float in [0, 1); `nextUint32()` an integer in [0, 2^32). */
export class Prng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Next float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }
  /** Next integer in [lo, hi] (inclusive); hi >= lo. */
  nextInt(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** Next standard normal deviate (Box-Muller). */
  nextGaussian(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** A standard normal deviate that is a pure function of the seed (Box-Muller on two hashed uniforms; no allocation). */
export function gaussianAt(seed: number): number {
  const a = mix32((seed + 0x6d2b79f5) >>> 0);
  const b = mix32((a ^ 0x5bd1e995) + 0x27d4eb2f);
  const u = (a + 1) / 4294967297; // (0, 1)
  const v = b / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
