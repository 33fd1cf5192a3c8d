// The markets page when its lists fail to load: the spec's section 8 text of the
// failure (here HTTP 503, 'Service unavailable') with Retry, in en and zh, instead of an empty list that
// would look like a market with no pairs; Retry asks the server again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import QuotesPage from './QuotesPage';

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('QuotesPage load failure', () => {
  it.each([
    ['en', 'Service unavailable', 'Retry'],
    ['zh', '服务不可用', '重试'],
  ] as const)('shows the section 8 text and retries (%s)', async (lang, text, retry) => {
    const fetch = vi.fn(async () => new Response('{}', { status: 503 }));
    vi.stubGlobal('fetch', fetch);
    await i18n.changeLanguage(lang);
    useAppStore.setState({ token: '', userId: '', isLogin: false, currentLangue: lang });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter initialEntries={['/quotes']}>
            <QuotesPage />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    const calls = fetch.mock.calls.length;
    await userEvent.click(screen.getByRole('button', { name: retry }));
    await vi.waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThan(calls));
  });
});
