/**
 * Proves the console's app versions page against a stubbed API (fetch, answers shaped like packages/api
 * app-version.ts): the list shows each version with its reasons in both languages, its kind (forced, web bundle
 * size) and status; an admin publishes android 1.3.0 with reasons and a web bundle (the body sent is exactly the
 * form's) and withdraws a live version after confirming; a malformed version is refused before anything is
 * sent; support sees the list but no form and no withdraw button.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { AppRelease, OperatorRole } from '@exchange/api';
import { setLang } from '../../shared/i18n';
import { setSession } from '../../shared/session';
import AppVersionsPage from './AppVersionsPage';

const OK = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }));

const android120: AppRelease = {
  id: '2',
  platform: 'android',
  version: '1.2.0',
  reasonsZh: ['修复行情刷新'],
  reasonsEn: ['Fixed the quotes refresh'],
  force: true,
  bundle: { url: '/api/app/version/bundle?id=2', sha256: 'ab'.repeat(32), sizeBytes: 2_048_000 },
  downloadUrl: '',
  publishedAt: 1_700_000_000_000,
  withdrawnAt: 0,
};
const web010: AppRelease = {
  ...android120,
  id: '1',
  platform: 'web',
  version: '0.1.0',
  force: false,
  bundle: null,
  reasonsZh: ['首个版本'],
  reasonsEn: ['First version'],
  withdrawnAt: 1_700_000_100_000,
};

function stubApi() {
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ url, body });
      if (url.startsWith('/api/admin/appVersion/list')) return OK({ records: [android120, web010] });
      if (url === '/api/admin/appVersion/publish') return OK({ ...android120, id: '3', version: body.version });
      if (url === '/api/admin/appVersion/withdraw') return OK({ ...android120, withdrawnAt: 1 });
      return OK(null);
    }),
  );
  return calls;
}

function renderAs(role: OperatorRole) {
  setLang('en');
  setSession({ token: 'op-token', operator: { id: '9', email: `${role}@ops.test`, name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>
          <AppVersionsPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('app versions page', () => {
  it('lists versions with reasons, kind and status', async () => {
    stubApi();
    renderAs('support');
    const row = (await screen.findByText('Fixed the quotes refresh')).closest('tr')!;
    expect(within(row).getByText('修复行情刷新')).toBeTruthy();
    expect(within(row).getByText('Forced update')).toBeTruthy();
    expect(within(row).getByText('Web bundle 2000 KB')).toBeTruthy();
    expect(within(row).getByText('Live')).toBeTruthy();
    expect(within(screen.getByText('First version').closest('tr')!).getByText('Withdrawn')).toBeTruthy();
    expect(screen.queryByText('Publish a version')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('publishes a version with its reasons and bundle, and withdraws one', async () => {
    const calls = stubApi();
    renderAs('admin');
    // antd's form and modal can take seconds beside other test files on a loaded machine: waits up to 15 s
    await screen.findByText('Fixed the quotes refresh', {}, { timeout: 15_000 });
    fireEvent.change(screen.getByLabelText('Version'), { target: { value: '1.3' } });
    fireEvent.change(screen.getByLabelText('Reasons (Chinese)'), { target: { value: '新增海报\n修复问题' } });
    fireEvent.change(screen.getByLabelText('Reasons (English)'), { target: { value: 'New poster\nFixes' } });
    // the switches: forced update, then web bundle (its label carries a help icon)
    fireEvent.click(screen.getAllByRole('switch')[1]!);
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect((await screen.findAllByText('major.minor.patch, e.g. 1.2.0', {}, { timeout: 15_000 })).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.url.includes('publish'))).toBe(false);
    fireEvent.change(screen.getByLabelText('Version'), { target: { value: '1.3.0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.find((c) => c.url.includes('publish'))).toBeTruthy(), { timeout: 15_000 });
    expect(calls.find((c) => c.url.includes('publish'))!.body).toEqual({
      platform: 'android',
      version: '1.3.0',
      reasonsZh: '新增海报\n修复问题',
      reasonsEn: 'New poster\nFixes',
      force: false,
      bundle: true,
    });
    expect(await screen.findByText('Android 1.3.0 published', {}, { timeout: 15_000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }, { timeout: 15_000 }));
    await waitFor(() => expect(calls.find((c) => c.url.includes('withdraw'))?.body).toEqual({ id: '2' }), { timeout: 15_000 });
  }, 60_000);
});
