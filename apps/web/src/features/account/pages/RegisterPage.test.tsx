// Component test of /register. The phone check: "12345" with +86 shows the inline error
// under the phone field when "Send code" is tapped, and neither the slide puzzle nor its request
// starts; a valid number passes the check and the puzzle is asked for. The demo welcome: the page says
// the USDT figure GET demo/info answers (grouped), last on the form (its late arrival moves no field), and nothing
// without demo mode. Logged in already,
// the form is not shown and the page leaves for the redirect query or home. In zh and en.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import RegisterPage from './RegisterPage';

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

function setup(lang: 'zh' | 'en', url = '/register') {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ areaCode: '86', currentLangue: lang });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/register" element={<RegisterPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** A fetch stub answering GET demo/info with `info` and every other call with HTTP 500. */
function stubFetch(info: { demoMode: boolean; welcomeUsdt: string }) {
  const fetch = vi.fn(async (url: string | URL | Request) =>
    String(url).includes('demo/info')
      ? new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '', errorMessage: '', result: info }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        })
      : new Response('{}', { status: 500 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The URLs fetched other than demo/info. */
const otherCalls = (fetch: ReturnType<typeof stubFetch>) => fetch.mock.calls.map((c) => String(c[0])).filter((u) => !u.includes('demo/info'));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RegisterPage phone check', () => {
  it.each([
    ['en', 'Phone', 'Send code', 'Please enter a valid mobile number for +86'],
    ['zh', '手机', '获取验证码', '请输入 +86 的有效手机号'],
  ] as const)('refuses 12345 with +86 inline, before any puzzle or request (%s)', async (lang, phoneTab, send, message) => {
    const fetch = stubFetch({ demoMode: true, welcomeUsdt: '10000' });
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    setup(lang);
    fireEvent.click(screen.getByRole('tab', { name: phoneTab }));
    const phone = screen.getByLabelText(phoneTab, { selector: 'input' });
    fireEvent.change(phone, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: send }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(otherCalls(fetch)).toEqual([]);

    fireEvent.change(phone, { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: send }));
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    // The check passed: the slide puzzle asks the server for a challenge.
    await vi.waitFor(() => expect(otherCalls(fetch).some((u) => u.includes('geetestCode'))).toBe(true));
  });
});

describe('RegisterPage demo welcome', () => {
  beforeEach(() => useAppStore.setState({ token: '', userId: '', isLogin: false }));

  it.each([
    ['en', 'Sign up and get 10,000 demo USDT to trade with'],
    ['zh', '注册即得 10,000 USDT 演示资金，可直接交易'],
  ] as const)('says the demo USDT the server credits (%s)', async (lang, text) => {
    stubFetch({ demoMode: true, welcomeUsdt: '10000' });
    setup(lang);
    expect(await screen.findByTestId('welcome-usdt')).toHaveTextContent(text);
  });

  it('puts the figure after the form, so its late arrival moves none of the fields or the button', async () => {
    stubFetch({ demoMode: true, welcomeUsdt: '10000' });
    setup('en');
    const gift = await screen.findByTestId('welcome-usdt');
    const submit = screen.getByRole('button', { name: 'Sign up' });
    const login = screen.getByRole('link', { name: 'Log in' });
    // DOCUMENT_POSITION_FOLLOWING: the gift comes after the submit button and the log-in link.
    expect(submit.compareDocumentPosition(gift) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(login.compareDocumentPosition(gift) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(gift.nextElementSibling).toBeNull();
  });

  it('takes the figure from the server, not from the app', async () => {
    stubFetch({ demoMode: true, welcomeUsdt: '2500' });
    setup('en');
    expect(await screen.findByTestId('welcome-usdt')).toHaveTextContent('Sign up and get 2,500 demo USDT to trade with');
  });

  it('says nothing without demo mode', async () => {
    const fetch = stubFetch({ demoMode: false, welcomeUsdt: '0' });
    setup('en');
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('welcome-usdt')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Create account' })).toBeInTheDocument();
  });
});

describe('RegisterPage when logged in', () => {
  it.each([
    ['/register', '/'],
    ['/register?redirect=%2Fassets', '/assets'],
    ['/register?redirect=%2F%2Fevil.example', '/'],
  ])('leaves %s for %s without the form', (url, to) => {
    stubFetch({ demoMode: true, welcomeUsdt: '10000' });
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    setup('en', url);
    expect(screen.getByTestId('where')).toHaveTextContent(new RegExp(`^${to.replace('/', '\\/')}$`));
    expect(screen.queryByRole('heading', { name: 'Create account' })).toBeNull();
  });
});
