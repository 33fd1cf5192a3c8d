// Component test of /login when already logged in: the form is not shown and the
// page leaves for the redirect query when it is a safe in-app path (not another origin, not back to
// /login or /register), else home; logged out, the form is shown. Also the safeRedirect rule itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { safeRedirect } from '../hooks/use-after-login';
import LoginPage from './LoginPage';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

function setup(url: string) {
  void i18n.changeLanguage('en');
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage when logged in', () => {
  it.each([
    ['/login', '/'],
    ['/login?redirect=%2Ftransaction%3Fx%3D1', '/transaction?x=1'],
    ['/login?redirect=https%3A%2F%2Fevil.example', '/'],
    ['/login?redirect=%2Flogin', '/'],
  ])('leaves %s for %s without the form', (url, to) => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    setup(url);
    expect(screen.getByTestId('where').textContent).toBe(to);
    expect(screen.queryByLabelText('Password', { selector: 'input' })).toBeNull();
  });

  it('shows the form when logged out', () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    setup('/login?redirect=%2Fassets');
    expect(screen.queryByTestId('where')).toBeNull();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

describe('safeRedirect', () => {
  it('keeps in-app paths and refuses the rest', () => {
    expect(safeRedirect('/assets?account=SPOT')).toBe('/assets?account=SPOT');
    expect(safeRedirect('/loginfo')).toBe('/loginfo');
    for (const bad of [
      null,
      '',
      'assets',
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      '/login',
      '/login?redirect=%2F',
      '/register',
      '/register/x',
    ]) {
      expect(safeRedirect(bad), String(bad)).toBe('/');
    }
  });
});
