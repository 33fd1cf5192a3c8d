// Page tests of /reserves with a stubbed API and a real Merkle-sum tree (packages/core): the published root and the
// per-asset totals are shown, with USDT's reserves on each of its four networks under its total (en and zh); logged out, "Verify" leads to the login page without asking for a proof; logged in, the
// user's proof is downloaded and verified in the browser ("Verified"), the path is listed and can be saved as JSON; a
// proof tampered with (one more unit) is "Not verified"; a user missing from the snapshot is told so; none published
// yet says so. lib/verify's helpers are checked on exact values.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { buildTree, proofOf } from '@exchange/core/reserves';
import type { ReservesProof, ReservesRoot } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import { proofFile, toUnits, unitsToDecimal, verifyAgainstRoot } from '../lib/verify';
import ReservesPage from './ReservesPage';

const ASSETS = ['BTC', 'ETH', 'USDT'];
const LEAVES = [
  { userId: '7', salt: '0a'.repeat(16), balances: [150_000_000n, 0n, 1_000_000_000_000n] },
  { userId: '8', salt: '0b'.repeat(16), balances: [0n, 2_500_000_000n, 5_000_000_000n] },
  { userId: '9', salt: '0c'.repeat(16), balances: [1n, 0n, 0n] },
];
const tree = buildTree(LEAVES);
const ROOT: ReservesRoot = {
  snapshotId: '4',
  createdAt: 1_700_000_000_000,
  rootHash: tree.root.hash,
  leafCount: 3,
  assets: ASSETS,
  totals: [
    { coin: 'BTC', liabilities: '1.50000001', reserves: '', ratio: '', networks: [] },
    { coin: 'ETH', liabilities: '25.00000000', reserves: '26.00000000', ratio: '1.0400', networks: [{ chain: 'ETH', reserves: '26.00000000' }] },
    {
      coin: 'USDT',
      liabilities: '10050.00000000',
      reserves: '9045.00000000',
      ratio: '0.9000',
      networks: [
        { chain: 'ETH', reserves: '5000.00000000' },
        { chain: 'BSC', reserves: '2000.50000000' },
        { chain: 'ARBITRUM', reserves: '1500.00000000' },
        { chain: 'MATIC', reserves: '544.50000000' },
      ],
    },
  ],
};
function proofOfUser(i: number): ReservesProof {
  const leaf = LEAVES[i]!;
  return {
    snapshotId: '4',
    rootHash: tree.root.hash,
    assets: ASSETS,
    scales: [8, 8, 8],
    userId: leaf.userId,
    salt: leaf.salt,
    balances: leaf.balances.map(String),
    leafIndex: i,
    path: proofOf(tree, i).map((s) => ({ side: s.side, hash: s.hash, sums: s.sums.map(String) })),
  };
}

beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('ReservesPage', () => {
  it('shows the root and totals; logged out, verifying leads to the login page', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    const calls = mockApi({ 'asset/reserves/getRoot': ROOT });
    renderPage(<ReservesPage />, { path: '/reserves' });
    expect(await screen.findByTestId('root-hash')).toHaveTextContent(tree.root.hash);
    expect(screen.getByText('1.50000001')).toBeInTheDocument();
    expect(screen.getByText('104.00%')).toBeInTheDocument();
    expect(screen.getByText('No chain here')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Log in to verify' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/login');
    expect(calls.some((c) => c.path === 'asset/reserves/getMyProof')).toBe(false);
  });

  it("lists each coin's reserves per network under its total, in en and zh", async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    mockApi({ 'asset/reserves/getRoot': ROOT });
    const en = renderPage(<ReservesPage />, { path: '/reserves' });
    const bsc = await screen.findByRole('row', { name: 'USDT reserves on BNB Smart Chain (BEP20)' });
    expect(
      within(bsc)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['BNB Smart Chain (BEP20)', '2,000.50', '']);
    const rows = screen.getAllByRole('row').map((r) => r.textContent);
    const usdt = rows.findIndex((r) => r?.startsWith('USDT'));
    expect(rows.slice(usdt)).toEqual([
      'USDT10,050.009,045.0090.00%',
      'Ethereum (ERC20)5,000.00',
      'BNB Smart Chain (BEP20)2,000.50',
      'Arbitrum One1,500.00',
      'Polygon POS544.50',
    ]);
    expect(screen.getByRole('row', { name: 'ETH reserves on Ethereum (ERC20)' })).toHaveTextContent('26');
    en.unmount();
    renderPage(<ReservesPage />, { path: '/reserves', lang: 'zh' });
    expect(await screen.findByRole('row', { name: 'USDT 在 Polygon POS 网络的储备' })).toHaveTextContent('544.50');
  });

  it('logged in: verifies the downloaded proof in the browser and lists the path', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'asset/reserves/getRoot': ROOT, 'asset/reserves/getMyProof': proofOfUser(0) });
    renderPage(<ReservesPage />, { path: '/reserves' });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify my balances' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Verified: your balances are included in the published root and totals');
    expect(screen.getByText('1.5')).toBeInTheDocument();
    expect(screen.getByText('10000')).toBeInTheDocument();
    expect(screen.getByText('Path to the root (tree height 2)')).toBeInTheDocument();
    const created = vi.fn(() => 'blob:proof');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Download proof (JSON)' }));
    expect(created).toHaveBeenCalledTimes(1);
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('a tampered proof is not verified; a user missing from the snapshot is told so', async () => {
    useAppStore.setState({ token: 't', userId: '8', isLogin: true });
    const tampered = proofOfUser(1);
    tampered.balances = ['0', '2500000001', '5000000000'];
    mockApi({ 'asset/reserves/getRoot': ROOT, 'asset/reserves/getMyProof': tampered });
    const first = renderPage(<ReservesPage />, { path: '/reserves' });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify my balances' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Not verified: the proof does not lead to the published root');
    first.unmount();

    mockApi({ 'asset/reserves/getRoot': ROOT, 'asset/reserves/getMyProof': { errorCode: 'reserves_not_included' } });
    renderPage(<ReservesPage />, { path: '/reserves' });
    fireEvent.click(await screen.findByRole('button', { name: 'Verify my balances' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not in the latest snapshot');
  });

  it('says when nothing is published yet', async () => {
    mockApi({ 'asset/reserves/getRoot': { errorCode: 'reserves_no_snapshot' } });
    renderPage(<ReservesPage />, { path: '/reserves' });
    expect(await screen.findByText('No snapshot has been published yet')).toBeInTheDocument();
  });
});

describe('lib/verify', () => {
  it('checks against the published root, not the one the proof names', () => {
    expect(verifyAgainstRoot(proofOfUser(2), ROOT)).toEqual({ ok: true });
    expect(verifyAgainstRoot({ ...proofOfUser(2), snapshotId: '3' }, ROOT)).toEqual({ ok: false, reason: 'other_snapshot' });
    const otherTotals = { ...ROOT, totals: ROOT.totals.map((x, i) => (i === 0 ? { ...x, liabilities: '1.50000002' } : x)) };
    expect(verifyAgainstRoot(proofOfUser(2), otherTotals)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyAgainstRoot({ ...proofOfUser(2), balances: ['-1', '0', '0'] }, ROOT)).toEqual({ ok: false, reason: 'malformed' });
  });
  it('converts exactly', () => {
    expect(toUnits('1.5', 8)).toBe(150_000_000n);
    expect(toUnits('1.000000001', 8)).toBeNull();
    expect(unitsToDecimal('150000000', 8)).toBe('1.5');
    expect(unitsToDecimal('1', 8)).toBe('0.00000001');
    expect(unitsToDecimal('0', 8)).toBe('0');
    expect(proofFile(proofOfUser(0), ROOT).name).toBe('proof-of-reserves-4-7.json');
  });
  it('reads the wire through the one parser (tryParseDecimal): only what formatDecimal writes', () => {
    expect(toUnits('0', 8)).toBe(0n);
    expect(toUnits('25.00000000', 8)).toBe(2_500_000_000n);
    expect(toUnits('1.0400', 4)).toBe(10_400n);
    expect(toUnits('7', 0)).toBe(7n);
    for (const bad of ['', '1.', '.5', '-1', '+1', '1e8', ' 1', '007', '1.5', '9'.repeat(65)]) expect(toUnits(bad, bad === '1.5' ? 0 : 8)).toBeNull();
    expect(unitsToDecimal('123456789012345678901234567890', 18)).toBe('123456789012.34567890123456789');
    // A malformed balance (the proof is "Not verified") is shown as it came, never reformatted into something else.
    expect(unitsToDecimal('-1', 8)).toBe('-1');
  });
});
