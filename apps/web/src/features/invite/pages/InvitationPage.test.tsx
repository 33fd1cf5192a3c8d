// Page tests of /invitation with a stubbed API: the totals, the threshold standing, the code (member/member/code) and
// the link the register page reads (?code=); the invitees with their masked accounts and the rebates per day (a day
// not paid below the threshold says so); the monthly ranking with the caller's rank; the poster popup's failure toast
// when the browser cannot draw (jsdom has no 2D canvas): 'Poster generation failed'; the in-person QR with the code.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { resetToastMemory } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import InvitationPage from './InvitationPage';

const RULES = { ratioPercent: '30', asset: 'USDT', threshold: '5000', settleTime: '00:00', timeZone: 'Asia/Shanghai', registerPath: '/register?code=' };
const SUMMARY = {
  welCode: 'ABCD2345',
  inviteeCount: 2,
  totalRebate: '1.25000000',
  pendingRebate: '0.03000001',
  holdings: '4999.99000000',
  qualified: false,
  settledThrough: '2026-11-27',
};
const entry = (rank: number, account: string, me: boolean) => ({ rank, account, rebate: '1.25000000', invitees: 2, me });

beforeEach(() => {
  resetToastMemory();
  useAppStore.setState({ token: 't'.repeat(64), userId: '7', isLogin: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('InvitationPage', () => {
  it('shows the totals, the threshold standing, the code and link, invitees, rebates and the ranking', async () => {
    const calls = mockApi({
      'invite/invite/rules': RULES,
      'invite/invite/summary': SUMMARY,
      'member/member/code': { welCode: 'ABCD2345' },
      'invite/invite/invitees': {
        total: 1,
        page: 1,
        pageSize: 20,
        records: [{ account: 'fri****.com', rebate: '1.25000000', registeredAt: 1_764_000_000_000 }],
      },
      'invite/invite/rebates': {
        total: 2,
        page: 1,
        pageSize: 20,
        records: [
          { day: '2026-11-27', fee: '4.16666670', rebate: '1.25000001', paid: '0.00000000', invitees: 2, settledAt: 1 },
          { day: '2026-11-26', fee: '4.16666666', rebate: '1.24999999', paid: '1.24999999', invitees: 1, settledAt: 1 },
        ],
      },
      'invite/invite/ranking': {
        month: '2026-11',
        from: 1_761_926_400_000,
        records: [entry(1, 'top****.com', false), entry(2, 'me1****.com', true)],
        mine: entry(2, 'me1****.com', true),
      },
    });
    renderPage(<InvitationPage />, { path: '/invitation' });
    expect(await screen.findByTestId('invite-code')).toHaveTextContent('ABCD2345');
    expect(screen.getByTestId('invite-link')).toHaveTextContent(`${window.location.origin}/register?code=ABCD2345`);
    expect(calls.find((c) => c.path === 'member/member/code')?.form).toMatchObject({ memberId: '7' });
    expect(await screen.findByTestId('total-rebate')).toHaveTextContent('1.25');
    expect(screen.getByTestId('pending-rebate')).toHaveTextContent('0.03000001');
    expect(screen.getByText('Hold at least 5,000 USDT at 00:00 (UTC+8) to be paid; you hold 4,999.99 USDT.')).toBeInTheDocument();
    const friends = await screen.findByRole('table', { name: 'My friends' });
    expect(within(friends).getByText('fri****.com')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'My rebates' }));
    const days = await screen.findByRole('list', { name: 'My rebates' });
    expect(within(days).getByText('+0.00 USDT')).toBeInTheDocument();
    expect(within(days).getByText('Not paid: you held less than the threshold at the settlement.')).toBeInTheDocument();
    expect(within(days).getByText('+1.24999999 USDT')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Ranking' }));
    expect(await screen.findByTestId('ranking-mine')).toHaveTextContent('My rank: 2');
    expect(calls.find((c) => c.path === 'invite/invite/ranking')?.form).toMatchObject({ month: 'this' });
  });

  it("toasts 'Poster generation failed' when the poster cannot be drawn; shows the in-person QR with the code", async () => {
    // A browser without a 2D canvas (jsdom has none).
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
    mockApi({
      'invite/invite/rules': RULES,
      'invite/invite/summary': SUMMARY,
      'member/member/code': { welCode: 'ABCD2345' },
      'invite/invite/invitees': { total: 0, page: 1, pageSize: 20, records: [] },
    });
    renderPage(<InvitationPage />, { path: '/invitation' });
    await screen.findByTestId('invite-code');
    fireEvent.click(screen.getByRole('button', { name: 'Poster' }));
    expect(await screen.findByText('Poster generation failed', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save poster' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'In-person invite' }));
    const full = screen.getByRole('dialog', { name: 'In-person invite' });
    expect(within(full).getByTestId('inperson-code')).toHaveTextContent('ABCD2345');
    fireEvent.click(within(full).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'In-person invite' })).toBeNull();
  });
});
