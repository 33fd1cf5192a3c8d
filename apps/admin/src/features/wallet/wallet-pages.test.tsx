/**
 * Proves the console's wallet pages against a stubbed API (fetch): the withdrawal queue shows approvals x/y and, for a
 * dual-approval withdrawal approved by someone else, the note that a second operator completes it; a finance operator
 * approves (POST approveWithdrawal with the id) and rejects only with both reasons (nothing sent before); the operator
 * who approved cannot approve again; support sees no decision buttons. The reserves page shows the latest root and
 * takes a snapshot (POST reservesSnapshot) for finance. Coverage is computed exactly from the decimal strings.
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
import { coveragePercent, decimalUnits, isShort } from './coverage';

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

describe('ReservesPage', () => {
  it('shows the latest root and takes a snapshot', async () => {
    const root = {
      snapshotId: '3',
      createdAt: 1_700_000_000_000,
      rootHash: 'ab'.repeat(32),
      leafCount: 5,
      assets: ['BTC', 'USDT'],
      totals: [
        { coin: 'BTC', liabilities: '1.50000000', reserves: '', ratio: '' },
        { coin: 'USDT', liabilities: '50000.00000000', reserves: '50500.00000000', ratio: '1.0100' },
      ],
    };
    const calls = stubApi({ 'asset/reserves/getRoot': root, 'admin/wallet/reservesSnapshot': { snapshotId: '4', rootHash: 'cd'.repeat(32), leafCount: 6 } });
    renderAs('finance', 'f@ops.test', <ReservesPage />);
    expect(await screen.findByText('ab'.repeat(32))).toBeTruthy();
    expect(screen.getByText('1.0100')).toBeTruthy();
    expect(screen.getByText('No chain in this deployment')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Take snapshot' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/wallet/reservesSnapshot')).toBe(true));
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
});
