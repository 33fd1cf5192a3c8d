/**
 * Keccak-256 (the pre-standard SHA-3 padding Ethereum uses), for the EIP-55 address checksum of the withdraw form.
 * A small, plain implementation on 64-bit BigInt lanes: it hashes 40-character addresses a few times per form, so
 * clarity beats speed here, and it spares the app a hashing dependency. Checked against the known vectors in
 * address.test.ts.
 */

const MASK = (1n << 64n) - 1n;

/** Rotation offsets, permutation targets and round constants of Keccak-f[1600], derived as in the reference. */
const ROTL: number[] = [];
const PI: number[] = [];
const IOTA: bigint[] = [];
for (let round = 0, r = 1n, x = 1, y = 0; round < 24; round++) {
  [x, y] = [y, (2 * x + 3 * y) % 5];
  PI.push(5 * y + x);
  ROTL.push((((round + 1) * (round + 2)) / 2) % 64);
  let t = 0n;
  for (let j = 0; j < 7; j++) {
    r = ((r << 1n) ^ ((r >> 7n) * 0x71n)) % 256n;
    if (r & 2n) t ^= 1n << ((1n << BigInt(j)) - 1n);
  }
  IOTA.push(t);
}

const rotl = (v: bigint, n: number): bigint => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK);

function keccakF(s: bigint[]): void {
  const b: bigint[] = new Array<bigint>(5).fill(0n);
  for (let round = 0; round < 24; round++) {
    // theta
    for (let x = 0; x < 5; x++) b[x] = s[x]! ^ s[x + 5]! ^ s[x + 10]! ^ s[x + 15]! ^ s[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const d = b[(x + 4) % 5]! ^ rotl(b[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) s[x + y] = s[x + y]! ^ d;
    }
    // rho and pi
    let cur = s[1]!;
    for (let t = 0; t < 24; t++) {
      const moved = rotl(cur, ROTL[t]!);
      const to = PI[t]!;
      cur = s[to]!;
      s[to] = moved;
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) b[x] = s[y + x]!;
      for (let x = 0; x < 5; x++) s[y + x] = b[x]! ^ (~b[(x + 1) % 5]! & MASK & b[(x + 2) % 5]!);
    }
    // iota
    s[0] = s[0]! ^ IOTA[round]!;
  }
}

/** Keccak-256 of `data`: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate);
  padded.set(data);
  padded[data.length] = (padded[data.length] ?? 0) ^ 0x01;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  const s: bigint[] = new Array<bigint>(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let k = 7; k >= 0; k--) lane = (lane << 8n) | BigInt(padded[off + i * 8 + k]!);
      s[i] = s[i]! ^ lane;
    }
    keccakF(s);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 4; i++) for (let k = 0; k < 8; k++) out[i * 8 + k] = Number((s[i]! >> BigInt(8 * k)) & 0xffn);
  return out;
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (v) => v.toString(16).padStart(2, '0')).join('');
}
