/**
 * Proves the user detail's API keys section against a stubbed API (answers shaped like packages/api api-keys.ts):
 * the list is asked for the user's id and shows each key (label, type, permissions, whitelist or "Unrestricted",
 * last used "Never"); compliance revokes with a reason (nothing sent without one; admin/apiKey/delete with the id and
 * the trimmed reason), support sees no Revoke button; the Chinese texts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import type { ApiKeyView, OperatorRole } from '@exchange/api';
import { setLang } from '../../shared/i18n';
import { setSession } from '../../shared/session';
import { ApiKeysSection } from './ApiKeysSection';

const OK = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }));

const BOT: ApiKeyView = {
  id: '21',
  label: 'Grid bot',
  apiKey: 'abcdefgh' + 'x'.repeat(50) + 'uvwxyz',
  keyType: 'HMAC_SHA256',
  read: true,
  spotTrade: true,
  futuresTrade: false,
  withdraw: true,
  ipWhitelist: ['203.0.113.7'],
  createdAt: 1_700_000_000_000,
  lastUsedAt: null,
};
const OWN: ApiKeyView = { ...BOT, id: '20', label: 'Own', keyType: 'ED25519', withdraw: false, ipWhitelist: [], lastUsedAt: 1_700_000_100_000 };

function stubApi(keys: ApiKeyView[]) {
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(init.body as string) : undefined });
      return OK(url.startsWith('/api/admin/apiKey/list') ? keys : null);
    }),
  );
  return calls;
}

/** Another console query under ['admin'] (the user's detail beside the keys) whose answer takes `ms`. */
function SlowAdminQuery({ ms }: { ms: number }) {
  useQuery({ queryKey: ['admin', 'slow'], queryFn: () => new Promise((resolve) => setTimeout(() => resolve(1), ms)) });
  return null;
}

function renderAs(role: OperatorRole, lang: 'en' | 'zh' = 'en', slowAdminQueryMs = 0) {
  setLang(lang);
  setSession({ token: 'op-token', operator: { id: '9', email: `${role}@ops.test`, name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <ApiKeysSection userId="10000007" />
        {slowAdminQueryMs > 0 && <SlowAdminQuery ms={slowAdminQueryMs} />}
      </App>
    </QueryClientProvider>,
  );
}

// antd's Table and Modal render slowly in jsdom on a shared machine: give findBy/waitFor room.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => vi.unstubAllGlobals());

describe('user API keys', () => {
  it('lists the keys and revokes one with a reason', async () => {
    const calls = stubApi([BOT, OWN]);
    renderAs('compliance');
    const row = (await screen.findByText('Grid bot')).closest('tr')!;
    expect(calls[0]!.url).toBe('/api/admin/apiKey/list?userId=10000007');
    expect(within(row).getByText('HMAC')).toBeTruthy();
    expect(within(row).getByText('abcdefgh…uvwxyz')).toBeTruthy();
    expect(within(row).getByText('Withdrawals')).toBeTruthy();
    expect(within(row).getByText('203.0.113.7')).toBeTruthy();
    expect(within(row).getByText('Never')).toBeTruthy();
    const own = screen.getByText('Own').closest('tr')!;
    expect(within(own).getByText('Ed25519')).toBeTruthy();
    expect(within(own).getByText('Unrestricted')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Revoke the key "Grid bot"?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/admin/apiKey/delete')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Leaked on a forum  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.url === '/api/admin/apiKey/delete').map((c) => c.body)).toEqual([{ id: '21', reason: 'Leaked on a forum' }]),
    );
  });

  it('says the key is revoked when its row is gone before the other refetched queries have answered', async () => {
    // After the revocation the list answers without the key at once, so its row (and the button that asked) unmounts
    // while the slower query of the same invalidation is still out. A `mutate` call's own onSuccess is then skipped.
    const calls: string[] = [];
    let revoked = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        if (url === '/api/admin/apiKey/delete') revoked = true;
        return OK(url.startsWith('/api/admin/apiKey/list') ? (revoked ? [OWN] : [BOT, OWN]) : null);
      }),
    );
    renderAs('compliance', 'en', 400);
    const row = (await screen.findByText('Grid bot')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Leaked' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByText('Grid bot')).toBeNull());
    await waitFor(() => expect(document.querySelector('.ant-message-notice-content')?.textContent).toBe('API key revoked'));
    expect(calls.filter((u) => u === '/api/admin/apiKey/delete')).toHaveLength(1);
  });

  it('has no Revoke button for support, and speaks Chinese', async () => {
    stubApi([BOT]);
    renderAs('support', 'zh');
    const row = (await screen.findByText('Grid bot')).closest('tr')!;
    expect(within(row).getByText('提现')).toBeTruthy();
    expect(within(row).getByText('从未使用')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: '吊销' })).toBeNull();
  });
});
