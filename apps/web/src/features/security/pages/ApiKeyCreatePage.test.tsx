// Page test of /accountCenter/apiKeys/create with a stubbed API: the rules stop an empty form and a withdrawing key
// without a whitelist before any call; an HMAC key is sent with exactly the contract's fields and the VERIFY code
// (Google not bound), then the one-time screen shows the API key and the secret with the "shown only once" warning;
// with Google bound the Google code is asked for instead, an Ed25519 key sends its PEM and shows no secret; a refusal
// shows the server's message (the envelope, in the user's language) and keeps the form.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ApiKeyView, CreatedApiKey } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import ApiKeyCreatePage from './ApiKeyCreatePage';

const SECURITY = { phone: '', areaCode: '86', mail: 'a***@b.c', googleBound: false, transPasswordSet: true, withdrawLock: null, lastLogin: null };
const KEY: ApiKeyView = {
  id: '5',
  label: 'Grid bot',
  apiKey: 'K'.repeat(64),
  keyType: 'HMAC_SHA256',
  read: true,
  spotTrade: true,
  futuresTrade: false,
  withdraw: false,
  ipWhitelist: [],
  createdAt: 1,
  lastUsedAt: null,
};
const PEM = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA' + 'x'.repeat(43) + '=\n-----END PUBLIC KEY-----';

afterEach(() => vi.unstubAllGlobals());

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function submit(name = 'Create') {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}

describe('ApiKeyCreatePage', () => {
  it('checks the form, sends an HMAC key with the VERIFY code and shows the secret once', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const created: CreatedApiKey = { key: KEY, secretKey: 'S'.repeat(64) };
    const calls = mockApi({ 'member/security/getSecurity': SECURITY, 'member/apiKey/create': created });
    renderPage(<ApiKeyCreatePage />, { path: '/accountCenter/apiKeys/create' });
    await screen.findByLabelText('Label');
    // Read is on and cannot be switched off; withdrawals are off.
    expect(screen.getByRole('switch', { name: 'Read' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('switch', { name: 'Read' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('switch', { name: 'Withdrawals' })).toHaveAttribute('aria-checked', 'false');
    expect(screen.queryByLabelText('Google verification code')).toBeNull();

    await submit();
    expect(screen.getByText('Please enter a label')).toBeInTheDocument();
    expect(screen.getByText('Please enter the verification code')).toBeInTheDocument();

    // Withdrawals need a whitelist (the server's rule too); the warning names what the permission does here.
    fireEvent.click(screen.getByRole('switch', { name: 'Withdrawals' }));
    expect(screen.getByText(/No route of this API moves funds off the exchange: this permission/)).toBeInTheDocument();
    type('Label', 'Grid bot');
    type('Verification code', '123456');
    await submit();
    expect(screen.getByText('A key that may withdraw needs an IP whitelist')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'member/apiKey/create')).toBe(false);
    fireEvent.click(screen.getByRole('switch', { name: 'Withdrawals' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Futures trading' }));
    type('IP whitelist (optional)', ' 203.0.113.7\n2001:db8::1 ');
    await submit();

    expect(await screen.findByTestId('api-secret')).toHaveTextContent('S'.repeat(64));
    expect(screen.getByTestId('api-key')).toHaveTextContent('K'.repeat(64));
    expect(screen.getByText(/it is shown only this once/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Secret key' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'member/apiKey/create').map((c) => c.form)).toEqual([
      {
        label: 'Grid bot',
        keyType: 'HMAC_SHA256',
        spotTrade: 'true',
        futuresTrade: 'true',
        withdraw: 'false',
        ipWhitelist: '203.0.113.7\n2001:db8::1',
        verifyCode: '123456',
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'I have saved the secret key' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/accountCenter/apiKeys');
  });

  it('asks for the Google code when bound; an Ed25519 key sends its PEM and has no secret', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({
      'member/security/getSecurity': { ...SECURITY, googleBound: true },
      'member/apiKey/create': { key: { ...KEY, label: 'My own', keyType: 'ED25519' }, secretKey: null },
    });
    renderPage(<ApiKeyCreatePage />, { path: '/accountCenter/apiKeys/create', lang: 'zh' });
    await screen.findByLabelText('备注名');
    expect(screen.queryByLabelText('验证码')).toBeNull();
    fireEvent.click(screen.getByRole('option', { name: '自有密钥（Ed25519）' }));
    type('备注名', 'My own');
    type('谷歌验证码', '654321');
    await submit('创建');
    expect(screen.getByText('请粘贴您的Ed25519公钥')).toBeInTheDocument();
    type('Ed25519公钥（PEM）', 'not a key');
    await submit('创建');
    expect(screen.getByText(/请粘贴PEM格式的公钥/)).toBeInTheDocument();
    type('Ed25519公钥（PEM）', PEM);
    await submit('创建');
    expect(await screen.findByRole('heading', { name: 'API密钥已创建' })).toBeInTheDocument();
    expect(screen.getByText('My own', { selector: '.adm-result-title' })).toBeInTheDocument();
    expect(screen.queryByTestId('api-secret')).toBeNull();
    expect(screen.getByText('您的程序使用所上传公钥对应的私钥为请求签名。')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'member/apiKey/create').map((c) => c.form)).toEqual([
      {
        label: 'My own',
        keyType: 'ED25519',
        publicKey: PEM,
        spotTrade: 'true',
        futuresTrade: 'false',
        withdraw: 'false',
        ipWhitelist: '',
        googleCode: '654321',
      },
    ]);
  });

  it("shows the server's refusal and keeps the form", async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({
      'member/security/getSecurity': SECURITY,
      'member/apiKey/create': { errorCode: 'api_key_ip_invalid', errorMessage: 'The IP whitelist holds an address that is not a valid IPv4 or IPv6 address' },
    });
    renderPage(<ApiKeyCreatePage />, { path: '/accountCenter/apiKeys/create' });
    await screen.findByLabelText('Label');
    type('Label', 'Bot');
    type('Verification code', '123456');
    type('IP whitelist (optional)', '999.1.1.1');
    await submit();
    await waitFor(() => expect(screen.getByText('The IP whitelist holds an address that is not a valid IPv4 or IPv6 address')).toBeInTheDocument());
    expect(screen.getByLabelText('Label')).toHaveValue('Bot');
    expect(screen.queryByTestId('api-secret')).toBeNull();
  });
});
