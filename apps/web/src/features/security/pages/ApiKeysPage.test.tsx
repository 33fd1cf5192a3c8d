// Page test of /accountCenter/apiKeys with a stubbed API: each key shows its label, API key, type, permissions as
// tags, IP whitelist (or "Unrestricted") and times (last used "Never" when unused); delete asks first, sends the id
// and the list shows the key gone; zh texts; logged out, the page asks to log in without calling the API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiKeyView } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { formatDateTime } from '../../../shared/format';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import ApiKeysPage from './ApiKeysPage';

const BOT: ApiKeyView = {
  id: '12',
  label: 'Grid bot',
  apiKey: 'A'.repeat(64),
  keyType: 'HMAC_SHA256',
  read: true,
  spotTrade: true,
  futuresTrade: false,
  withdraw: false,
  ipWhitelist: ['203.0.113.7', '2001:db8::1'],
  createdAt: Date.UTC(2026, 0, 2, 3, 4),
  lastUsedAt: Date.UTC(2026, 0, 3, 5, 6),
};
const OWN: ApiKeyView = {
  ...BOT,
  id: '11',
  label: 'Own key',
  apiKey: 'B'.repeat(64),
  keyType: 'ED25519',
  spotTrade: false,
  futuresTrade: true,
  ipWhitelist: [],
  lastUsedAt: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('ApiKeysPage', () => {
  it('shows each key with its type, permissions, whitelist and times', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/apiKey/list': [BOT, OWN] });
    renderPage(<ApiKeysPage />, { path: '/accountCenter/apiKeys' });
    const bot = await screen.findByRole('listitem', { name: 'Grid bot' });
    expect(within(bot).getByText('HMAC')).toBeInTheDocument();
    expect(within(bot).getByText('A'.repeat(64))).toBeInTheDocument();
    expect(within(bot).getByText('Read')).toBeInTheDocument();
    expect(within(bot).getByText('Spot trading')).toBeInTheDocument();
    expect(within(bot).queryByText('Futures trading')).toBeNull();
    expect(within(bot).getByText('203.0.113.7, 2001:db8::1')).toBeInTheDocument();
    expect(within(bot).getByText(formatDateTime(BOT.createdAt))).toBeInTheDocument();
    expect(within(bot).getByText(formatDateTime(BOT.lastUsedAt))).toBeInTheDocument();
    const own = screen.getByRole('listitem', { name: 'Own key' });
    expect(within(own).getByText('Ed25519')).toBeInTheDocument();
    expect(within(own).getByText('Futures trading')).toBeInTheDocument();
    expect(within(own).queryByText('Spot trading')).toBeNull();
    expect(within(own).getByText('Unrestricted')).toBeInTheDocument();
    expect(within(own).getByText('Never')).toBeInTheDocument();
    expect(screen.getByText('Keys: 2 / 30')).toBeInTheDocument();
  });

  it('deletes a key after the confirmation and shows it gone', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    let keys = [BOT, OWN];
    const calls = mockApi({
      'member/apiKey/list': () => keys,
      'member/apiKey/delete': (f: Record<string, string>) => {
        keys = keys.filter((k) => k.id !== f.id);
        return null;
      },
    });
    renderPage(<ApiKeysPage />, { path: '/accountCenter/apiKeys' });
    const bot = await screen.findByRole('listitem', { name: 'Grid bot' });
    fireEvent.click(within(bot).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete "Grid bot"? Programs using it stop working at once.');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Grid bot' })).toBeNull());
    expect(calls.filter((c) => c.path === 'member/apiKey/delete').map((c) => c.form)).toEqual([{ id: '12' }]);
    expect(screen.getByRole('listitem', { name: 'Own key' })).toBeInTheDocument();
  });

  it('cancelling the confirmation deletes nothing', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'member/apiKey/list': [BOT] });
    renderPage(<ApiKeysPage />, { path: '/accountCenter/apiKeys' });
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'Grid bot' })).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls.some((c) => c.path === 'member/apiKey/delete')).toBe(false);
    expect(screen.getByRole('listitem', { name: 'Grid bot' })).toBeInTheDocument();
  });

  it('speaks Chinese and offers creating a key when there is none', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/apiKey/list': [] });
    renderPage(<ApiKeysPage />, { path: '/accountCenter/apiKeys', lang: 'zh' });
    expect(await screen.findByText('暂无API密钥')).toBeInTheDocument();
    fireEvent.click(screen.getAllByRole('button', { name: '创建API密钥' }).at(-1)!);
    expect(await screen.findByTestId('where')).toHaveTextContent('/accountCenter/apiKeys/create');
  });

  it('asks to log in when logged out, without calling the API', () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    const calls = mockApi({});
    renderPage(<ApiKeysPage />, { path: '/accountCenter/apiKeys' });
    expect(screen.getByText('You are not logged in, log in?')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
