/**
 * Renders a page for a component test as the app does: a fresh QueryClient (no retries), i18n in `lang`, a memory
 * router at `url` with the page on `path` and a catch-all showing where navigation went (data-testid "where").
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { i18n } from '../shared/i18n';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

/** Renders `page` on `path`, opened at `url` (default `path`). */
export function renderPage(page: ReactElement, opts: { path: string; url?: string; lang?: 'en' | 'zh' }) {
  void i18n.changeLanguage(opts.lang ?? 'en');
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[opts.url ?? opts.path]}>
          <Routes>
            <Route path={opts.path} element={page} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}
