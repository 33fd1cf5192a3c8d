/**
 * Proves the login page: the three fields are required (nothing is sent without them), the TOTP must be 6 digits, a
 * refused login shows the server's message, and a successful one stores the session.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import '../../shared/i18n';
import { setLang } from '../../shared/i18n';
import { getSession } from '../../shared/session';
import LoginPage from './LoginPage';

function renderLogin() {
  setLang('en');
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <LoginPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('LoginPage', () => {
  it('sends nothing without a 6-digit code; shows a refusal; stores a session', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ status: 'FAILED', errorCode: 'admin_login_failed', errorMessage: 'Wrong e-mail, password or authenticator code', result: null }),
          { status: 400 },
        ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderLogin();
    fill('E-mail', 'op@ops.test');
    fill('Password', 'secret');
    fill('Authenticator code', '12a');
    fireEvent.click(screen.getByRole('button', { name: /log in/i }));
    await screen.findAllByText('6 digits from your authenticator app');
    expect(fetchMock).not.toHaveBeenCalled();

    fill('Authenticator code', '123456');
    fireEvent.click(screen.getByRole('button', { name: /log in/i }));
    expect(await screen.findByText('Wrong e-mail, password or authenticator code')).toBeTruthy();
    expect(JSON.parse((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({
      email: 'op@ops.test',
      password: 'secret',
      totp: '123456',
    });

    const operator = { id: '1', email: 'op@ops.test', name: 'Op', role: 'support', disabled: false, createdAt: 0 };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: { token: 't'.repeat(43), expiresAt: 1, operator } })),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: /log in/i }));
    await waitFor(() => expect(getSession()?.operator.email).toBe('op@ops.test'));
    vi.unstubAllGlobals();
  });
});
