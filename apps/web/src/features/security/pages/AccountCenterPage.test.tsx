// Page test of /accountCenter with a stubbed API: each row shows its state and action (phone to bind, e-mail bound,
// Google bound, transaction password set with "forgot"), the withdrawal lock banner names its reason and end time
// while it lasts and is absent once over; the API management row leads to /accountCenter/apiKeys; logged out, the page asks to log in instead of calling the API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { formatDateTime } from '../../../shared/format';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import AccountCenterPage from './AccountCenterPage';

const SECURITY = {
  phone: '',
  areaCode: '86',
  mail: 'ali***@example.com',
  googleBound: true,
  transPasswordSet: true,
  withdrawLock: null as null | { until: number; reason: string },
  lastLogin: { at: Date.UTC(2026, 10, 23, 8), ip: '203.0.113.9' },
};

afterEach(() => vi.unstubAllGlobals());

describe('AccountCenterPage', () => {
  it('shows each state and its action', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/security/getSecurity': SECURITY });
    renderPage(<AccountCenterPage />, { path: '/accountCenter' });
    expect(await screen.findByText('ali***@example.com')).toBeInTheDocument();
    expect(screen.getAllByText('Bound')).toHaveLength(2); // e-mail and Google
    expect(screen.getByText('Bind')).toBeInTheDocument(); // phone
    expect(screen.getByText('Forgot transaction password')).toBeInTheDocument();
    expect(screen.getByText(`Last login ${formatDateTime(SECURITY.lastLogin.at)}, IP 203.0.113.9`)).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('offers "Change" on a set transaction password and "Set up" on one not set, never "Set" both times', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/security/getSecurity': SECURITY });
    const set = renderPage(<AccountCenterPage />, { path: '/accountCenter' });
    const rowOf = async () => (await screen.findByText('Transaction password')).closest('.adm-list-item');
    expect((await rowOf())?.querySelector('.sec-action')?.textContent).toBe('Change');
    set.unmount();
    mockApi({ 'member/security/getSecurity': { ...SECURITY, transPasswordSet: false } });
    renderPage(<AccountCenterPage />, { path: '/accountCenter' });
    expect((await rowOf())?.querySelector('.sec-action')?.textContent).toBe('Set up');
    expect(screen.queryByText('Forgot transaction password')).toBeNull();
  });

  it('shows the withdrawal lock with its reason and end time while it lasts', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const until = Date.now() + 3600_000;
    mockApi({ 'member/security/getSecurity': { ...SECURITY, withdrawLock: { until, reason: 'GOOGLE_CLOSED' } } });
    renderPage(<AccountCenterPage />, { path: '/accountCenter', lang: 'zh' });
    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent(`提币已锁定至 ${formatDateTime(until)}`);
    expect(banner).toHaveTextContent('您关闭了谷歌验证');
  });

  it('does not show a lock that is over', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/security/getSecurity': { ...SECURITY, withdrawLock: { until: Date.now() - 1, reason: 'PASSWORD_CHANGED' } } });
    renderPage(<AccountCenterPage />, { path: '/accountCenter' });
    await screen.findByText('ali***@example.com');
    expect(screen.queryByText(/Withdrawals are locked/)).toBeNull();
  });

  it('leads to API management', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/security/getSecurity': SECURITY });
    renderPage(<AccountCenterPage />, { path: '/accountCenter', lang: 'zh' });
    (await screen.findByText('API管理')).click();
    expect(await screen.findByTestId('where')).toHaveTextContent('/accountCenter/apiKeys');
  });

  it('asks to log in when logged out, without calling the API', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    const calls = mockApi({});
    renderPage(<AccountCenterPage />, { path: '/accountCenter' });
    expect(screen.getByText('You are not logged in, log in?')).toBeInTheDocument();
    screen.getByRole('button', { name: 'Log in' }).click();
    expect(await screen.findByTestId('where')).toHaveTextContent('/login?redirect=%2FaccountCenter');
    expect(calls).toHaveLength(0);
  });
});
