// Proves the Merkle-sum tree of proof of reserves: a known-answer vector pins the byte encoding; fast-check properties
// show that every leaf's path verifies against the root, that the root's sums are the column totals of the balances,
// and that changing one balance, the salt, the user id, a sibling hash, a sibling sum or a side makes verification fail.
// Negative balances are refused when building and when verifying.
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { describe, expect, it } from 'vitest';
import { buildTree, hashLeaf, hashNode, leafPreimage, MerkleSumError, proofOf, verifyProof, zeroLeaf, type MerkleSumLeafInput } from './merkle-sum';

const leafArb = (assets: number): fc.Arbitrary<MerkleSumLeafInput> =>
  fc.record({
    userId: fc.stringMatching(/^[0-9]{1,8}$/),
    salt: fc.uint8Array({ minLength: 16, maxLength: 16 }).map(bytesToHex),
    balances: fc.array(fc.bigInt({ min: 0n, max: 10n ** 20n }), { minLength: assets, maxLength: assets }),
  });
const treeArb = fc.integer({ min: 1, max: 4 }).chain((assets) =>
  fc.record({
    assets: fc.constant(assets),
    // distinct user ids, as in a snapshot (one leaf per user)
    leaves: fc.array(leafArb(assets), { minLength: 1, maxLength: 40 }).map((ls) => ls.map((l, i) => ({ ...l, userId: String(i + 1) }))),
  }),
);

describe('encoding', () => {
  it('hashes the documented preimage: tag, length-prefixed salt and id, asset count, 32-byte balances', () => {
    const leaf = { userId: '7', salt: '00ff', balances: [1n, 256n] };
    const expected =
      '6c656166' + // "leaf"
      '00000002' +
      '00ff' + // salt
      '00000001' +
      '37' + // "7"
      '00000002' + // two assets
      '0'.repeat(62) +
      '01' +
      '0'.repeat(60) +
      '0100';
    expect(bytesToHex(leafPreimage(leaf))).toBe(expected);
    expect(hashLeaf(leaf).hash).toBe(bytesToHex(sha256(hexToBytes(expected))));
  });
  it('hashes a node over both children hashes and sums, and adds the sums', () => {
    const a = hashLeaf({ userId: '1', salt: 'aa', balances: [5n] });
    const b = hashLeaf({ userId: '2', salt: 'bb', balances: [7n] });
    const pre = '6e6f6465' + a.hash + '0'.repeat(62) + '05' + b.hash + '0'.repeat(62) + '07';
    expect(hashNode(a, b)).toEqual({ hash: bytesToHex(sha256(hexToBytes(pre))), sums: [12n] });
  });
  it('pads an odd level with the zero leaf and an empty tree is the zero leaf', () => {
    const a = { userId: '1', salt: 'aa', balances: [5n] };
    expect(buildTree([a]).root).toEqual(hashNode(hashLeaf(a), zeroLeaf(1)));
    expect(buildTree([], 2).root).toEqual(zeroLeaf(2));
    const three = buildTree([a, { ...a, userId: '2' }, { ...a, userId: '3' }]);
    expect(three.levels.map((l) => l.length)).toEqual([4, 2, 1]);
    expect(three.root.sums).toEqual([15n]);
  });
  it('refuses a negative balance and mixed asset counts', () => {
    expect(() => buildTree([{ userId: '1', salt: 'aa', balances: [-1n] }])).toThrow(MerkleSumError);
    expect(() =>
      buildTree([
        { userId: '1', salt: 'aa', balances: [1n] },
        { userId: '2', salt: 'aa', balances: [1n, 2n] },
      ]),
    ).toThrow(MerkleSumError);
    expect(() => hashLeaf({ userId: '1', salt: 'zz', balances: [1n] })).toThrow(MerkleSumError);
  });
});

describe('proofs (property)', () => {
  it("every leaf's proof verifies and the root sums are the column totals", () => {
    fc.assert(
      fc.property(treeArb, ({ assets, leaves }) => {
        const tree = buildTree(leaves);
        for (let a = 0; a < assets; a++) expect(tree.root.sums[a]).toBe(leaves.reduce((s, l) => s + (l.balances[a] as bigint), 0n));
        leaves.forEach((leaf, i) => expect(verifyProof(leaf, proofOf(tree, i), tree.root)).toBe(true));
      }),
      { numRuns: 60 },
    );
  });

  it('a tampered balance, salt or user id fails', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), fc.bigInt({ min: 1n, max: 10n ** 10n }), ({ leaves }, pick, delta) => {
        const tree = buildTree(leaves);
        const i = pick % leaves.length;
        const leaf = leaves[i] as MerkleSumLeafInput;
        const steps = proofOf(tree, i);
        const a = pick % leaf.balances.length;
        const more = leaf.balances.map((b, k) => (k === a ? b + delta : b));
        expect(verifyProof({ ...leaf, balances: more }, steps, tree.root)).toBe(false);
        const flipped = ((parseInt(leaf.salt.slice(0, 2), 16) ^ 1) & 0xff).toString(16).padStart(2, '0') + leaf.salt.slice(2);
        expect(verifyProof({ ...leaf, salt: flipped }, steps, tree.root)).toBe(false);
        expect(verifyProof({ ...leaf, userId: leaf.userId + '0' }, steps, tree.root)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('a tampered sibling hash, sibling sum or side fails, and so does a negative sibling sum', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), fc.nat(), ({ leaves }, pick, stepPick) => {
        const tree = buildTree(leaves);
        const i = pick % leaves.length;
        const leaf = leaves[i] as MerkleSumLeafInput;
        const steps = proofOf(tree, i);
        const s = stepPick % steps.length;
        const step = steps[s]!;
        const withStep = (patch: Partial<(typeof steps)[number]>) => steps.map((x, k) => (k === s ? { ...x, ...patch } : x));
        const h = step.hash;
        const badHash = (h[0] === '0' ? '1' : '0') + h.slice(1);
        expect(verifyProof(leaf, withStep({ hash: badHash }), tree.root)).toBe(false);
        expect(verifyProof(leaf, withStep({ sums: step.sums.map((x, k) => (k === 0 ? x + 1n : x)) }), tree.root)).toBe(false);
        // moving value from a sibling into a negative fake is refused even when the totals would still add up
        expect(verifyProof(leaf, withStep({ sums: step.sums.map((x, k) => (k === 0 ? -1n : x)) }), tree.root)).toBe(false);
        expect(verifyProof(leaf, withStep({ side: step.side === 'L' ? 'R' : 'L' }), tree.root)).toBe(false);
        expect(verifyProof(leaf, steps.slice(0, -1), tree.root)).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('a root with other sums fails even with the right hash', () => {
    const leaves = [
      { userId: '1', salt: '01', balances: [3n, 0n] },
      { userId: '2', salt: '02', balances: [4n, 9n] },
    ];
    const tree = buildTree(leaves);
    expect(verifyProof(leaves[0]!, proofOf(tree, 0), { hash: tree.root.hash, sums: [7n, 8n] })).toBe(false);
    expect(verifyProof(leaves[0]!, proofOf(tree, 0), tree.root)).toBe(true);
    expect(() => proofOf(tree, 2)).toThrow(RangeError);
  });
});
