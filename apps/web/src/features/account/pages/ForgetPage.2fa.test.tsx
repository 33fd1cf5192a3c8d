// Page test of the password reset with Google authenticator bound, with a stubbed API: when the server answers
// google_code_required the page asks for the Google code under the other fields (the e-mail code stays as typed) and
// sends the reset again with both; a wrong Google code is shown under its field and cleared.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import ForgetPage from './ForgetPage';

afterEach(() => vi.unstubAllGlobals());

describe('ForgetPage with Google authenticator bound', () => {
  it('asks for the Google code and resets with both codes', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false, phone: '' });
    const calls = mockApi({
      'member/member/forgetPassword': (f: Record<string, string>) =>
        !f.googleCode
          ? { errorCode: 'google_code_required', errorMessage: 'Enter the Google code' }
          : f.googleCode === '000000'
            ? { errorCode: 'google_code_invalid', errorMessage: 'The Google verification code is wrong' }
            : null,
    });
    renderPage(<ForgetPage />, { path: '/forget' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('Verification code', { selector: 'input' }), { target: { value: '123123' } });
    fireEvent.change(screen.getByLabelText('New password', { selector: 'input' }), { target: { value: 'NewPassw0rd' } });
    fireEvent.change(screen.getByLabelText('Confirm password', { selector: 'input' }), { target: { value: 'NewPassw0rd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    const google = await screen.findByLabelText('Google verification code');
    expect(screen.getByLabelText('Verification code', { selector: 'input' })).toHaveValue('123123');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Please enter the Google verification code')).toBeInTheDocument();
    fireEvent.change(google, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('The Google verification code is wrong')).toBeInTheDocument();
    expect(screen.getByLabelText('Google verification code')).toHaveValue('');

    fireEvent.change(screen.getByLabelText('Google verification code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    const resets = () => calls.filter((c) => c.path === 'member/member/forgetPassword');
    await waitFor(() => expect(resets()).toHaveLength(3));
    expect(resets()[0]!.form.googleCode).toBeUndefined();
    expect(resets()[2]!.form).toMatchObject({
      account: 'a@b.co',
      code: '123123',
      password: 'NewPassw0rd',
      confirmPassword: 'NewPassw0rd',
      googleCode: '654321',
    });
  });
});
