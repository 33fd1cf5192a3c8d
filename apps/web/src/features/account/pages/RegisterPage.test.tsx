// Component test of the phone check on /register (issue 8): "12345" with +86 shows the inline error
// under the phone field when "Send code" is tapped, and neither the slide puzzle nor any request
// starts; a valid number passes the check and the puzzle is asked for. In zh and en.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import RegisterPage from './RegisterPage';

function setup(lang: 'zh' | 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ areaCode: '86', currentLangue: lang });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/register']}>
          <RegisterPage />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RegisterPage phone check', () => {
  it.each([
    ['en', 'Phone', 'Send code', 'Please enter a valid mobile number for +86'],
    ['zh', '手机', '获取验证码', '请输入 +86 的有效手机号'],
  ] as const)('refuses 12345 with +86 inline, before any puzzle or request (%s)', async (lang, phoneTab, send, message) => {
    const fetch = vi.fn(async () => new Response('{}', { status: 500 }));
    vi.stubGlobal('fetch', fetch);
    setup(lang);
    fireEvent.click(screen.getByRole('tab', { name: phoneTab }));
    const phone = screen.getByLabelText(phoneTab, { selector: 'input' });
    fireEvent.change(phone, { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: send }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(fetch).not.toHaveBeenCalled();

    fireEvent.change(phone, { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: send }));
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    // The check passed: the slide puzzle asks the server for a challenge.
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
  });
});
