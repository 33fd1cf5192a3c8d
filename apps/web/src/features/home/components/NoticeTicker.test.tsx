// Component test of the home notice ticker fed by the notices query as the home page feeds it: while the
// query has no answer the ticker shows the skeleton and never "No announcements"; an empty answer shows
// "No announcements" (暂无公告 in zh); a failed query shows its load-failure text, not the empty text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { i18n } from '../../../shared/i18n';
import { useNotices } from '../../../shared/content-api';
import { mockApi } from '../../../test/mock-api';
import { NoticeTicker } from './NoticeTicker';

function Ticker() {
  const q = useNotices();
  return <NoticeTicker notices={q.data} error={q.isError ? q.error : undefined} />;
}

function setup(lang: 'en' | 'zh') {
  void i18n.changeLanguage(lang);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <Ticker />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NoticeTicker', () => {
  it.each([
    ['en', 'No announcements'],
    ['zh', '暂无公告'],
  ] as const)('shows the skeleton while the notices load, never the empty text (%s)', async (lang, empty) => {
    // The server never answers during this test.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    setup(lang);
    expect(screen.getByTestId('skeleton')).toHaveAttribute('aria-busy', 'true');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    expect(screen.queryByText(empty)).toBeNull();
  });

  it.each([
    ['en', 'No announcements'],
    ['zh', '暂无公告'],
  ] as const)('shows the empty text for an empty answer (%s)', async (lang, empty) => {
    mockApi({ 'data/data/getNotices': [] });
    setup(lang);
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });

  it('shows the titles of an answer', async () => {
    mockApi({ 'data/data/getNotices': [{ id: '1', title: 'Maintenance tonight' }] });
    setup('en');
    expect(await screen.findByText('Maintenance tonight')).toBeInTheDocument();
    expect(screen.queryByText('No announcements')).toBeNull();
  });

  it('shows the load-failure text for a failed query, not the empty text', async () => {
    mockApi({ 'data/data/getNotices': { errorCode: 'system_error', errorMessage: 'Server busy' } });
    setup('en');
    await screen.findByText((_, el) => el?.className === 'text-3' && el.textContent !== '');
    expect(screen.queryByText('No announcements')).toBeNull();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });
});
