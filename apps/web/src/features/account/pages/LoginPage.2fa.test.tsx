// Page test of the login's second step with a stubbed API: when the server answers google_code_required
// after the password, the page asks for the Google code (the account and password fields give way); the retry sends
// account, password and googleCode; a wrong code (google_code_invalid) is shown under the field and cleared.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import LoginPage from './LoginPage';

afterEach(() => vi.unstubAllGlobals());

describe('LoginPage with Google authenticator bound', () => {
  it('asks for the Google code and logs in with it', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false, phone: '' });
    const calls = mockApi({
      'member/member/login': (f: Record<string, string>) =>
        !f.googleCode
          ? { errorCode: 'google_code_required', errorMessage: 'Enter the Google code' }
          : f.googleCode === '000000'
            ? { errorCode: 'google_code_invalid', errorMessage: 'The Google verification code is wrong' }
            : { token: 'tok', userId: '9', expiresAt: Date.now() + 3600_000 },
      'member/member/getMember': { uuid: 'u9', nickName: 'n', phone: '', mail: 'a@b.co', areaCode: '86', cardNo: '', cardState: '' },
    });
    renderPage(<LoginPage />, { path: '/login' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('Password', { selector: 'input' }), { target: { value: 'Passw0rd1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const code = await screen.findByLabelText('Google verification code');
    expect(screen.queryByLabelText('Password', { selector: 'input' })).toBeNull();
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('The Google verification code is wrong')).toBeInTheDocument();
    expect(screen.getByLabelText('Google verification code')).toHaveValue('');

    fireEvent.change(screen.getByLabelText('Google verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(useAppStore.getState().isLogin).toBe(true));
    const logins = calls.filter((c) => c.path === 'member/member/login');
    expect(logins).toHaveLength(3);
    expect(logins[2]!.form).toMatchObject({ account: 'a@b.co', password: 'Passw0rd1', googleCode: '123456' });
    expect(logins[0]!.form.googleCode).toBeUndefined();
  });
});
