/**
 * Merkle-sum tree of user liabilities for proof of reserves.
 *
 * The construction is the one Binance publishes for its proof of reserves (https://www.binance.com/en/proof-of-reserves,
 * https://github.com/binance/zkmerkle-proof-of-solvency) and that Vitalik Buterin describes in "Having a safe CEX: proof
 * of solvency and beyond" (https://vitalik.eth.limo/general/2022/11/19/proof_of_reserves.html): every node carries,
 * besides its hash, the per-asset sums of the balances below it; a parent's hash commits to BOTH children's hashes AND
 * both children's sums (not only their total), so the operator cannot shift liabilities between subtrees, and every sum
 * must be non-negative, so it cannot cancel a user's balance with a negative fake leaf. A user who holds their leaf and
 * the path (the siblings' hashes and sums) recomputes the root and checks it against the published one.
 *
 * Byte encoding (all hashes SHA-256, all integers big-endian, so the preimage is unambiguous):
 *   u32(x)  = 4 bytes, big-endian; u256(x) = 32 bytes, big-endian, 0 <= x < 2^256
 *   leaf    = sha256( "leaf" | u32(len(salt)) | salt | u32(len(userId)) | utf8(userId) | u32(n) | u256(b_0) ... u256(b_{n-1}) )
 *   node    = sha256( "node" | left.hash | u256(left.sums_0..n-1) | right.hash | u256(right.sums_0..n-1) )
 *   sums    = left.sums + right.sums, per asset
 * where "leaf" and "node" are the 4 ASCII bytes, `salt` the raw bytes (16 random bytes per user per snapshot: it hides
 * the user id and balances from anyone who sees a sibling hash), and n the number of assets (the same for every node of
 * a tree, in the order the snapshot publishes). Inside a node every field has a fixed width (32-byte hashes, n x 32-byte
 * sums), so no length prefix is needed there.
 *
 * Padding: a level with an odd number of nodes gets one padding node on the right. At the leaf level it is the ZERO
 * leaf (empty salt, empty user id, n zero balances); one level up, node(zero, zero); and so on: the tree is exactly the
 * one over the leaves padded with zero leaves to the next power of two. An empty tree's root is the zero leaf.
 *
 * Pure: no I/O, no clock, no randomness (the salts are inputs).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

/** A user's leaf before hashing: the salt as hex (any even length), the user id, balances in each asset's smallest unit. */
export interface MerkleSumLeafInput {
  userId: string;
  /** hex, lowercase or uppercase, even length (16 random bytes in a snapshot) */
  salt: string;
  /** one per asset, in the tree's asset order; each 0 <= b < 2^256 */
  balances: readonly bigint[];
}

/** A hashed node: its SHA-256 as lowercase hex and the per-asset sums of the leaves below it. */
export interface MerkleSumNode {
  hash: string;
  sums: readonly bigint[];
}

/** The whole tree: `levels[0]` the leaves (padded), `levels[levels.length - 1]` = [root]. */
export interface MerkleSumTree {
  root: MerkleSumNode;
  levels: readonly (readonly MerkleSumNode[])[];
  /** number of assets of every node */
  assetCount: number;
  /** number of real (unpadded) leaves */
  leafCount: number;
}

/** One sibling on the path from a leaf to the root: `side` is where the SIBLING stands (L: left of the current node). */
export interface MerkleSumProofStep {
  side: 'L' | 'R';
  hash: string;
  sums: readonly bigint[];
}

/** Thrown for input the construction refuses: a negative or oversized balance, mixed asset counts, malformed salt. */
export class MerkleSumError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MerkleSumError';
  }
}

const LEAF_TAG = utf8ToBytes('leaf');
const NODE_TAG = utf8ToBytes('node');
const MAX_U256 = (1n << 256n) - 1n;
const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;
const HASH_RE = /^[0-9a-f]{64}$/;

function u32(x: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, x, false);
  return out;
}

function u256(x: bigint): Uint8Array {
  if (x < 0n) throw new MerkleSumError('negative balance');
  if (x > MAX_U256) throw new MerkleSumError('balance above 2^256 - 1');
  return hexToBytes(x.toString(16).padStart(64, '0'));
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The preimage of a leaf (see the module comment); exported so documentation and tests can show the exact bytes. */
export function leafPreimage(leaf: MerkleSumLeafInput): Uint8Array {
  if (!HEX_RE.test(leaf.salt)) throw new MerkleSumError('salt is not hex');
  const salt = hexToBytes(leaf.salt.toLowerCase());
  const user = utf8ToBytes(leaf.userId);
  return concat([LEAF_TAG, u32(salt.length), salt, u32(user.length), user, u32(leaf.balances.length), ...leaf.balances.map(u256)]);
}

/** Hashes a user's leaf: `{hash, sums: balances}`. Throws MerkleSumError on a negative or oversized balance. */
export function hashLeaf(leaf: MerkleSumLeafInput): MerkleSumNode {
  return { hash: bytesToHex(sha256(leafPreimage(leaf))), sums: [...leaf.balances] };
}

/** The padding leaf of a tree of `assetCount` assets: empty salt, empty user id, zero balances. */
export function zeroLeaf(assetCount: number): MerkleSumNode {
  return hashLeaf({ userId: '', salt: '', balances: new Array<bigint>(assetCount).fill(0n) });
}

/** Parent of two nodes with the same asset count; throws MerkleSumError on a negative sum or a count mismatch. */
export function hashNode(left: MerkleSumNode, right: MerkleSumNode): MerkleSumNode {
  if (left.sums.length !== right.sums.length) throw new MerkleSumError('asset count differs between siblings');
  const preimage = concat([NODE_TAG, hexToBytes(left.hash), ...left.sums.map(u256), hexToBytes(right.hash), ...right.sums.map(u256)]);
  return { hash: bytesToHex(sha256(preimage)), sums: left.sums.map((s, i) => s + (right.sums[i] as bigint)) };
}

/**
 * Builds the tree over the leaves in the given order (a leaf's index is its position). All leaves must have the same
 * number of balances (`assetCount`, required when `leaves` is empty). Throws MerkleSumError on a negative balance.
 */
export function buildTree(leaves: readonly MerkleSumLeafInput[], assetCount = leaves[0]?.balances.length ?? 0): MerkleSumTree {
  for (const leaf of leaves) {
    if (leaf.balances.length !== assetCount) throw new MerkleSumError('every leaf must have one balance per asset');
  }
  let level: MerkleSumNode[] = leaves.map(hashLeaf);
  let pad = zeroLeaf(assetCount);
  if (level.length === 0) return { root: pad, levels: [[pad]], assetCount, leafCount: 0 };
  const levels: MerkleSumNode[][] = [];
  for (;;) {
    if (level.length === 1 && levels.length > 0) break;
    if (level.length % 2 === 1) level.push(pad);
    levels.push(level);
    const next: MerkleSumNode[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(hashNode(level[i] as MerkleSumNode, level[i + 1] as MerkleSumNode));
    level = next;
    pad = hashNode(pad, pad);
  }
  levels.push(level);
  return { root: level[0] as MerkleSumNode, levels, assetCount, leafCount: leaves.length };
}

/** The siblings from leaf `index` up to the root (leaf level first). Throws RangeError for an index outside the leaves. */
export function proofOf(tree: MerkleSumTree, index: number): MerkleSumProofStep[] {
  if (index !== Math.floor(index) || index < 0 || index >= tree.leafCount) throw new RangeError(`no leaf ${index}`);
  const steps: MerkleSumProofStep[] = [];
  let at = index;
  for (let l = 0; l < tree.levels.length - 1; l++) {
    const level = tree.levels[l] as readonly MerkleSumNode[];
    const isRight = at % 2 === 1;
    const sibling = level[isRight ? at - 1 : at + 1] as MerkleSumNode;
    steps.push({ side: isRight ? 'L' : 'R', hash: sibling.hash, sums: sibling.sums });
    at = Math.floor(at / 2);
  }
  return steps;
}

/**
 * True when the leaf with its path recomputes `root` exactly: the leaf's hash from its salt, id and balances; at every
 * step the parent's hash over both children's hashes and sums, each sibling sum non-negative and the parent's sums the
 * children's sums added; at the end the same hash and the same sums as the root. Never throws: malformed input is false.
 */
export function verifyProof(leaf: MerkleSumLeafInput, steps: readonly MerkleSumProofStep[], root: MerkleSumNode): boolean {
  try {
    const n = leaf.balances.length;
    let node = hashLeaf(leaf);
    for (const step of steps) {
      if (!HASH_RE.test(step.hash) || step.sums.length !== n) return false;
      if (step.sums.some((s) => s < 0n)) return false;
      if (step.side === 'L') node = hashNode(step, node);
      else if (step.side === 'R') node = hashNode(node, step);
      else return false;
    }
    return node.hash === root.hash.toLowerCase() && root.sums.length === n && node.sums.every((s, i) => s === root.sums[i]);
  } catch {
    return false;
  }
}
