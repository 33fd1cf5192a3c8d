/**
 * Verification of a downloaded proof in the browser, with packages/core's Merkle-sum verifyProof (the same code the
 * server builds the tree with; docs/proof-of-reserves.md): the leaf is rehashed from the user id, salt and balances,
 * every step's parent hash and sums recomputed, and the result compared with the PUBLISHED root (getRoot: its hash
 * and the per-asset liabilities in smallest units), not with the root the proof itself names.
 */
import { verifyProof } from '@exchange/core/reserves';
import type { ReservesProof, ReservesRoot } from '@exchange/api';
import { formatDecimal, tryParseDecimal } from '@exchange/money';
import { trimZeros } from '../../../shared/format';

/** Outcome of a verification: ok, or why not. */
export type VerifyResult = { ok: true } | { ok: false; reason: 'other_snapshot' | 'malformed' | 'mismatch' };

/**
 * A non-negative decimal string of the wire with at most `scale` places as an integer in smallest units
 * (`tryParseDecimal`, the one parser: "1.5" at 8 -> 150000000n); null when it is not one (a sign, an exponent,
 * "1.", ".5", leading zeros or more than `scale` places): the published figures are the server's `formatDecimal`.
 */
export function toUnits(s: string, scale: number): bigint | null {
  const r = tryParseDecimal(s, scale);
  return r.ok ? r.value : null;
}

/** Verifies `proof` against the published `root`. Never throws. */
export function verifyAgainstRoot(proof: ReservesProof, root: ReservesRoot): VerifyResult {
  if (proof.snapshotId !== root.snapshotId || proof.rootHash !== root.rootHash) return { ok: false, reason: 'other_snapshot' };
  const n = root.assets.length;
  if (proof.assets.length !== n || proof.assets.some((a, i) => a !== root.assets[i]) || proof.balances.length !== n || proof.scales.length !== n) {
    return { ok: false, reason: 'malformed' };
  }
  const rootSums = root.totals.map((x, i) => toUnits(x.liabilities, proof.scales[i]!));
  // Balances and path sums are integers in smallest units: decimals of scale 0.
  const balances = proof.balances.map((b) => toUnits(b, 0));
  const path = proof.path.map((s) => ({ side: s.side, hash: s.hash, sums: s.sums.map((x) => toUnits(x, 0)) }));
  if ([...rootSums, ...balances, ...path.flatMap((s) => s.sums)].some((u) => u === null)) return { ok: false, reason: 'malformed' };
  const ok = verifyProof(
    { userId: proof.userId, salt: proof.salt, balances: balances as bigint[] },
    path.map((s) => ({ ...s, sums: s.sums as bigint[] })),
    { hash: root.rootHash, sums: rootSums as bigint[] },
  );
  return ok ? { ok: true } : { ok: false, reason: 'mismatch' };
}

/**
 * A smallest-unit integer string of a proof as a decimal with `scale` places, trailing zeros trimmed ("1.5", "0"):
 * `formatDecimal` of the units. A string that is no such integer (a malformed proof, which is shown with its
 * verdict) is returned as it is.
 */
export function unitsToDecimal(units: string, scale: number): string {
  const u = toUnits(units, 0);
  return u === null ? units : trimZeros(formatDecimal(u, scale));
}

/** The JSON file a user downloads: the published root and their proof, enough to verify again offline. */
export function proofFile(proof: ReservesProof, root: ReservesRoot): { name: string; text: string } {
  return { name: `proof-of-reserves-${root.snapshotId}-${proof.userId}.json`, text: JSON.stringify({ root, proof }, null, 2) };
}
