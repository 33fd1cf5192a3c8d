/**
 * Verification of a downloaded proof in the browser, with packages/core's Merkle-sum verifyProof (the same code the
 * server builds the tree with; docs/proof-of-reserves.md): the leaf is rehashed from the user id, salt and balances,
 * every step's parent hash and sums recomputed, and the result compared with the PUBLISHED root (getRoot: its hash
 * and the per-asset liabilities in smallest units), not with the root the proof itself names.
 */
import { verifyProof } from '@exchange/core/reserves';
import type { ReservesProof, ReservesRoot } from '@exchange/api';

/** Outcome of a verification: ok, or why not. */
export type VerifyResult = { ok: true } | { ok: false; reason: 'other_snapshot' | 'malformed' | 'mismatch' };

const UINT_RE = /^[0-9]{1,80}$/;
const DEC_RE = /^([0-9]{1,80})(?:\.([0-9]{1,36}))?$/;

/** A decimal string of at most `scale` places as an integer in smallest units; null when it is not one. */
export function toUnits(s: string, scale: number): bigint | null {
  const m = DEC_RE.exec(s);
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > scale) return null;
  return BigInt(m[1]!) * 10n ** BigInt(scale) + BigInt(frac.padEnd(scale, '0') || '0');
}

/** Verifies `proof` against the published `root`. Never throws. */
export function verifyAgainstRoot(proof: ReservesProof, root: ReservesRoot): VerifyResult {
  if (proof.snapshotId !== root.snapshotId || proof.rootHash !== root.rootHash) return { ok: false, reason: 'other_snapshot' };
  const n = root.assets.length;
  if (proof.assets.length !== n || proof.assets.some((a, i) => a !== root.assets[i]) || proof.balances.length !== n || proof.scales.length !== n) {
    return { ok: false, reason: 'malformed' };
  }
  const rootSums = root.totals.map((x, i) => toUnits(x.liabilities, proof.scales[i]!));
  const nums = [...proof.balances, ...proof.path.flatMap((s) => s.sums)];
  if (rootSums.some((s) => s === null) || nums.some((s) => !UINT_RE.test(s))) return { ok: false, reason: 'malformed' };
  const ok = verifyProof(
    { userId: proof.userId, salt: proof.salt, balances: proof.balances.map((b) => BigInt(b)) },
    proof.path.map((s) => ({ side: s.side, hash: s.hash, sums: s.sums.map((x) => BigInt(x)) })),
    { hash: root.rootHash, sums: rootSums as bigint[] },
  );
  return ok ? { ok: true } : { ok: false, reason: 'mismatch' };
}

/** A smallest-unit integer string as a decimal with `scale` places, trailing zeros trimmed ("1.5", "0"). */
export function unitsToDecimal(units: string, scale: number): string {
  const s = units.padStart(scale + 1, '0');
  const int = s.slice(0, s.length - scale);
  const frac = s.slice(s.length - scale).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** The JSON file a user downloads: the published root and their proof, enough to verify again offline. */
export function proofFile(proof: ReservesProof, root: ReservesRoot): { name: string; text: string } {
  return { name: `proof-of-reserves-${root.snapshotId}-${proof.userId}.json`, text: JSON.stringify({ root, proof }, null, 2) };
}
