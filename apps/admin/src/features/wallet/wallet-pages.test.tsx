/**
 * Proves the console's wallet pages against a stubbed API (fetch): the withdrawal queue shows approvals x/y and, for a
 * dual-approval withdrawal approved by someone else, the note that a second operator completes it; a finance operator
 * approves (POST approveWithdrawal with the id) and rejects only with both reasons (nothing sent before); the operator
 * who approved cannot approve again; support sees no decision buttons. The reserves page shows the latest root with
 * USDT's reserves per network under its total, and takes a snapshot (POST reservesSnapshot) for finance. Coverage is computed exactly from the decimal strings. The
 * hot-wallet page shows USDT's four networks by name and code, each with its hot wallet, deposit addresses and on-chain
 * sum, then their total against USDT's liabilities taken once (a coverage of 100.00%, where adding the four rows'
 * liabilities would say 25.00%); a network whose balance is unknown is named on the total and left out of it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { OperatorRole } from '@exchange/api';
import { setLang } from '../../shared/i18n';
import { setSession } from '../../shared/session';
import WithdrawalsPage from './WithdrawalsPage';
import ReservesPage from './ReservesPage';
import HotWalletPage from './HotWalletPage';
import { coveragePercent, decimalUnits, isShort } from './coverage';
import { hotWalletLines, sumDecimals, unitsToDecimal } from './hot-wallet-lines';

const OK = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }));

const withdrawal = {
  id: '42',
  userId: '10000007',
  account: 'amy@example.com',
  coin: 'USDT',
  chain: 'ETH',
  address: '0x1111111111111111111111111111111111111111',
  amount: '150000.00000000',
  fee: '1.00000000',
  status: 'REVIEW',
  approvalsRequired: 2,
  approvals: ['first@ops.test'],
  txHash: '',
  reason: '',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  explorerUrl: '',
};

/** A fetch stub answering by path; records the calls. */
function stubApi(routes: Record<string, unknown>) {
  const calls: Array<{ url: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const path = Object.keys(routes).find((p) => url.startsWith(`/api/${p}`));
    return OK(path === undefined ? null : routes[path]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderAs(role: OperatorRole, email: string, page: React.ReactNode) {
  setLang('en');
  setSession({ token: 't', operator: { id: '9', email, name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>{page}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

vi.setConfig({ testTimeout: 30_000 });

describe('WithdrawalsPage', () => {
  it('finance: sees 1/2 and the second-operator note, and rejects only with both reasons', async () => {
    const calls = stubApi({ 'admin/wallet/withdrawals': { total: 1, list: [withdrawal] } });
    renderAs('finance', 'second@ops.test', <WithdrawalsPage />);
    expect(await screen.findByText('150,000')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/admin/wallet/withdrawals?status=REVIEW&page=1');
    expect(screen.getByText('1/2')).toBeTruthy();
    fireEvent.click(screen.getByText('150,000'));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(/one has approved, a second approval completes it/)).toBeTruthy();

    fireEvent.click(within(drawer).getAllByRole('button', { name: 'Reject' }).at(-1)!);
    await within(drawer).findAllByText('Required', {}, { timeout: 8000 });
    expect(calls.some((c) => c.url.includes('rejectWithdrawal'))).toBe(false);

    fireEvent.change(within(drawer).getByLabelText('Reason (Chinese)'), { target: { value: '地址存在风险' } });
    fireEvent.change(within(drawer).getByLabelText('Reason (English)'), { target: { value: 'Risky address' } });
    fireEvent.click(within(drawer).getAllByRole('button', { name: 'Reject' }).at(-1)!);
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/admin/wallet/rejectWithdrawal')?.body).toEqual({
        id: '42',
        reasonZh: '地址存在风险',
        reasonEn: 'Risky address',
      }),
    );
  });

  it('finance approves with the id', async () => {
    const calls = stubApi({ 'admin/wallet/withdrawals': { total: 1, list: [{ ...withdrawal, approvals: [], approvalsRequired: 1 }] } });
    renderAs('finance', 'second@ops.test', <WithdrawalsPage />);
    fireEvent.click(await screen.findByText('150,000'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/admin/wallet/approveWithdrawal')?.body).toEqual({ id: '42' }));
  });

  it('the operator who approved cannot approve again; support cannot decide', async () => {
    stubApi({ 'admin/wallet/withdrawals': { total: 1, list: [withdrawal] } });
    const first = renderAs('admin', 'first@ops.test', <WithdrawalsPage />);
    fireEvent.click(await screen.findByText('150,000'));
    let drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText(/a different operator must give the second approval/)).toBeTruthy();
    expect((within(drawer).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
    first.unmount();

    renderAs('support', 'help@ops.test', <WithdrawalsPage />);
    fireEvent.click(await screen.findByText('150,000'));
    drawer = await screen.findByRole('dialog');
    expect(within(drawer).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(drawer).getByText(/Your role can view but not decide/)).toBeTruthy();
  });
});

const HOT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** The server's rows: ETH on Ethereum, USDT on four networks, every USDT row with USDT's whole liabilities. */
const hotRows = [
  { chain: 'ETH', coin: 'ETH', hotWalletAddress: HOT, hotWallet: '30.00000000', depositAddresses: '0.50000000', liabilities: '25.00000000' },
  { chain: 'ETH', coin: 'USDT', hotWalletAddress: HOT, hotWallet: '4000.00000000', depositAddresses: '0.50000000', liabilities: '10000.00000000' },
  { chain: 'BSC', coin: 'USDT', hotWalletAddress: HOT, hotWallet: '2500.25000000', depositAddresses: '100.00000000', liabilities: '10000.00000000' },
  { chain: 'ARBITRUM', coin: 'USDT', hotWalletAddress: HOT, hotWallet: '1500.00000000', depositAddresses: '0.00000001', liabilities: '10000.00000000' },
  { chain: 'MATIC', coin: 'USDT', hotWalletAddress: HOT, hotWallet: '1899.74999999', depositAddresses: '0.00000000', liabilities: '10000.00000000' },
];
const coins = [
  {
    coin: 'USDT',
    name: 'Tether',
    chains: [
      { chain: 'ETH', chainName: 'Ethereum (ERC20)' },
      { chain: 'BSC', chainName: 'BNB Smart Chain (BEP20)' },
      { chain: 'ARBITRUM', chainName: 'Arbitrum One' },
      { chain: 'MATIC', chainName: 'Polygon POS' },
    ],
  },
];

describe('ReservesPage', () => {
  it('shows the latest root and takes a snapshot', async () => {
    const root = {
      snapshotId: '3',
      createdAt: 1_700_000_000_000,
      rootHash: 'ab'.repeat(32),
      leafCount: 5,
      assets: ['BTC', 'USDT'],
      totals: [
        { coin: 'BTC', liabilities: '1.50000000', reserves: '', ratio: '', networks: [] },
        {
          coin: 'USDT',
          liabilities: '50000.00000000',
          reserves: '50500.00000000',
          ratio: '1.0100',
          networks: [
            { chain: 'ETH', reserves: '40000.00000000' },
            { chain: 'BSC', reserves: '10000.25000000' },
            { chain: 'ARBITRUM', reserves: '499.75000000' },
            { chain: 'MATIC', reserves: '0.00000000' },
          ],
        },
      ],
    };
    const calls = stubApi({
      'asset/reserves/getRoot': root,
      'asset/wallet/getCoins': coins,
      'admin/wallet/reservesSnapshot': { snapshotId: '4', rootHash: 'cd'.repeat(32), leafCount: 6 },
    });
    renderAs('finance', 'f@ops.test', <ReservesPage />);
    expect(await screen.findByText('ab'.repeat(32))).toBeTruthy();
    expect(screen.getByText('101.00%')).toBeTruthy();
    // USDT's reserves on each network, under its total.
    const bsc = (await screen.findByText('BNB Smart Chain (BEP20) (BSC)')).closest('tr')!;
    expect(within(bsc).getByText('10,000.25')).toBeTruthy();
    expect(screen.getByText('Polygon POS (MATIC)')).toBeTruthy();
    expect(screen.getByText('No chain in this deployment')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Take snapshot' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/wallet/reservesSnapshot')).toBe(true));
  });
});

describe('HotWalletPage', () => {
  it("shows each network's holdings and the coin's total against its liabilities taken once", async () => {
    stubApi({ 'admin/wallet/hotWallet': hotRows, 'asset/wallet/getCoins': coins });
    renderAs('support', 's@ops.test', <HotWalletPage />);
    expect(await screen.findByText('BNB Smart Chain (BEP20)')).toBeTruthy();
    const text = (r: HTMLElement) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    const rows = screen.getAllByRole('row').slice(1);
    // the network's cell carries the hot wallet's address under its name, shortened (whole in the tooltip and the copy)
    const hot = '0xf39Fd6…b92266';
    expect(rows.map(text)).toEqual([
      ['ETH', `Ethereum (ERC20)ETH${hot}`, '30', '0.5', '30.5', '25', '122.00%'],
      ['USDT', `Ethereum (ERC20)ETH${hot}`, '4,000', '0.5', '4,000.5', 'In the total', 'In the total'],
      ['USDT', `BNB Smart Chain (BEP20)BSC${hot}`, '2,500.25', '100', '2,600.25', 'In the total', 'In the total'],
      ['USDT', `Arbitrum OneARBITRUM${hot}`, '1,500', '0.00000001', '1,500.00000001', 'In the total', 'In the total'],
      ['USDT', `Polygon POSMATIC${hot}`, '1,899.74999999', '0', '1,899.74999999', 'In the total', 'In the total'],
      ['USDT', 'Total over 4 networks', '9,899.99999999', '100.50000001', '10,000.5', '10,000', '100.00%'],
    ]);
  });

  it('names a network whose balance is unknown on the total and counts without it', async () => {
    const rows = hotRows.map((r) => (r.chain === 'MATIC' ? { ...r, hotWallet: '', depositAddresses: '' } : r));
    stubApi({ 'admin/wallet/hotWallet': rows, 'asset/wallet/getCoins': coins });
    renderAs('support', 's@ops.test', <HotWalletPage />);
    expect(await screen.findByText('Not counted: MATIC')).toBeTruthy();
    const total = screen.getByText('Total over 4 networks').closest('tr')!;
    expect(within(total).getByText('8,100.75000001')).toBeTruthy();
    expect(within(total).getByText('81.00%')).toBeTruthy();
  });
});

describe('hotWalletLines', () => {
  it('adds the networks exactly and takes the liabilities once', () => {
    const lines = hotWalletLines(hotRows);
    expect(lines.map((l) => [l.kind, l.chain, l.onChain, l.liabilities, l.coverage])).toEqual([
      ['single', 'ETH', '30.5', '25.00000000', '122.00%'],
      ['network', 'ETH', '4000.5', '', ''],
      ['network', 'BSC', '2600.25', '', ''],
      ['network', 'ARBITRUM', '1500.00000001', '', ''],
      ['network', 'MATIC', '1899.74999999', '', ''],
      ['total', '', '10000.5', '10000.00000000', '100.00%'],
    ]);
    const allUnknown = hotWalletLines(hotRows.map((r) => ({ ...r, hotWallet: '', depositAddresses: '' })));
    expect(allUnknown.at(-1)).toMatchObject({ kind: 'total', onChain: '', coverage: '', unknown: ['ETH', 'BSC', 'ARBITRUM', 'MATIC'] });
    expect(allUnknown[0]).toMatchObject({ kind: 'single', coverage: '', unknown: ['ETH'] });
  });
  it('sums decimal strings without floating point', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['1000000.000000000000000001', '0.999999999999999999'])).toBe('1000001');
    expect(sumDecimals(['1', ''])).toBe('');
    expect(unitsToDecimal(0n)).toBe('0');
    expect(unitsToDecimal(1n)).toBe('0.000000000000000001');
    expect(unitsToDecimal(1_500_000_000_000_000_000n)).toBe('1.5');
    expect(unitsToDecimal(100_000_000_000_000_000_000n)).toBe('100');
    expect(unitsToDecimal(123_456_789_000_000_000_000_000_000n)).toBe('123456789');
  });
});

describe('coverage', () => {
  it('is exact and rounds down', () => {
    expect(decimalUnits('1.5')).toBe(1_500_000_000_000_000_000n);
    expect(decimalUnits('')).toBeNull();
    expect(coveragePercent('60', '40.00000001', '100')).toBe('100.00%');
    expect(coveragePercent('1', '0', '3')).toBe('33.33%');
    expect(coveragePercent('', '1', '3')).toBe('');
    expect(coveragePercent('1', '1', '0')).toBe('');
    expect(isShort('99.99%')).toBe(true);
    expect(isShort('100.00%')).toBe(false);
  });
  it('reads the wire through the one parser: unsigned, at most 18 places, spaces around ignored', () => {
    expect(decimalUnits(' 2 ')).toBe(2_000_000_000_000_000_000n);
    expect(decimalUnits('0')).toBe(0n);
    expect(decimalUnits('0.000000000000000001')).toBe(1n);
    for (const bad of ['-1', '+1', '1.', '.5', '1e3', 'abc', '0.0000000000000000001']) expect(decimalUnits(bad)).toBeNull();
    expect(coveragePercent('0', '0', '3')).toBe('0.00%');
    expect(coveragePercent('250', '0.5', '100')).toBe('250.50%');
    expect(coveragePercent('1', '0', '300')).toBe('0.33%');
    expect(coveragePercent('400000000', '0', '40')).toBe('1,000,000,000.00%');
    expect(isShort('1,000,000,000.00%')).toBe(false);
    expect(isShort('5.00%')).toBe(true);
    expect(isShort('')).toBe(false);
  });
});
