// Page tests of the wallet with a stubbed API (test/mock-api): the coin chooser's search; the deposit page's address,
// minimum and confirmations, the "not available" text for a network without a node (and no address call), the copy
// failure toast, saving the QR code through the native bridge (a refused permission offers the settings), and the
// demo's test deposit followed by its confirmations n/N; the withdraw form's client checks
// (address checksum, minimum, available, maximum) before any request, the unverified prompt, and a submission with
// PIN and e-mail code whose client id is kept across a failed try and sent again unchanged; transfers refusing the
// same account and 'Amount exceeds maximum', then posting and landing on /assets/tranferSuccess; the records list
// and a rejected withdrawal's detail with its reason.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { resetToastMemory } from '../../../shared/api-client';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import ChooseCoinPage from './ChooseCoinPage';
import CoinChargingPage from './CoinChargingPage';
import WithdrawCoinPage from './WithdrawCoinPage';
import TransferPage from './TransferPage';
import CapitalRecordsPage from './CapitalRecordsPage';
import CapitalRecordsDetailPage from './CapitalRecordsDetailPage';
import WithdrawCoinSuccessPage from './WithdrawCoinSuccessPage';
import { aliceUsdtAddress, assetsUsdtInSpot8410, coinsUsdtEthBtc, depositConfirming3of12, withdrawInfoUsdt500, withdrawalRejected } from '../test-fixtures';

// jsdom has no canvas: the QR code is a fixed PNG here.
vi.mock('qrcode', () => ({ default: { toDataURL: () => Promise.resolve('data:image/png;base64,iVBORw0KGgo=') } }));
// The native shell's plugins (shared/bridge/capacitor.ts), used when window.Capacitor says the app runs natively.
const shell = vi.hoisted(() => ({ saveImage: vi.fn(), openAppSettings: vi.fn() }));
vi.mock('../../../shared/bridge/capacitor', () => ({ createCapacitorBridge: () => shell }));

beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetToastMemory();
});

function login() {
  useAppStore.setState({ token: 't', userId: '7', isLogin: true });
}
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('ChooseCoinPage', () => {
  it('filters by code or name and opens the withdraw screen of the coin', async () => {
    mockApi({ 'asset/wallet/getCoins': coinsUsdtEthBtc });
    renderPage(<ChooseCoinPage />, { path: '/assets/chooseCoin', url: '/assets/chooseCoin?type=withdrawCoin' });
    expect(await screen.findByText('Tether')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'ether' } });
    const list = screen.getByRole('list', { name: 'Coins' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['USDTTether', 'ETHEthereum']);
    fireEvent.click(within(list).getByText('ETH'));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/withdrawCoin?coin=ETH');
  });
});

describe('CoinChargingPage', () => {
  it('shows the address, minimum and confirmations of an available network', async () => {
    login();
    mockApi({
      'asset/wallet/getCoins': coinsUsdtEthBtc,
      'asset/wallet/getDepositAddress': { coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, minDeposit: '1', confirmations: 12, demoDeposit: false },
      'asset/wallet/getRecords': { type: 'coinCharging', total: 0, deposits: [], withdrawals: [], transfers: [] },
    });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT' });
    expect(await screen.findByTestId('deposit-address')).toHaveTextContent(aliceUsdtAddress);
    expect(screen.getByText('1 USDT')).toBeInTheDocument();
    expect(screen.getByText('12 network confirmations')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Network: Ethereum (ERC20). Choose another' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /test deposit/ })).toBeNull();
  });

  it('says a network without a node is not available, and asks for no address', async () => {
    login();
    const calls = mockApi({ 'asset/wallet/getCoins': coinsUsdtEthBtc });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=BTC' });
    expect(await screen.findByText('This network is not available in this deployment')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'asset/wallet/getDepositAddress')).toBe(false);
  });

  it("toasts 'Copy failed, please retry' when the clipboard refuses", async () => {
    login();
    mockApi({
      'asset/wallet/getCoins': coinsUsdtEthBtc,
      'asset/wallet/getDepositAddress': { coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, minDeposit: '1', confirmations: 12, demoDeposit: false },
      'asset/wallet/getRecords': { type: 'coinCharging', total: 0, deposits: [], withdrawals: [], transfers: [] },
    });
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    document.execCommand = () => false;
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT' });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(await screen.findByText('Copy failed, please retry')).toBeInTheDocument();
  });

  it('saves the QR code through the native bridge, and on a refused permission offers the settings', async () => {
    login();
    mockApi({
      'asset/wallet/getCoins': coinsUsdtEthBtc,
      'asset/wallet/getDepositAddress': { coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, minDeposit: '1', confirmations: 12, demoDeposit: false },
      'asset/wallet/getRecords': { type: 'coinCharging', total: 0, deposits: [], withdrawals: [], transfers: [] },
    });
    const saveImage = shell.saveImage.mockResolvedValueOnce('saved').mockResolvedValueOnce('denied');
    const openSettings = shell.openAppSettings;
    vi.stubGlobal('Capacitor', { isNativePlatform: () => true, getPlatform: () => 'android' });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT' });
    const save = await screen.findByRole('button', { name: 'Save QR code' });
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.click(save);
    expect(await screen.findByText('Image saved')).toBeInTheDocument();
    expect(saveImage).toHaveBeenCalledWith('data:image/png;base64,iVBORw0KGgo=', 'USDT-ETH-deposit.png');
    fireEvent.click(save);
    expect(await screen.findByText('Saving pictures needs access to your photos. Open settings to allow it?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open settings' }));
    await waitFor(() => expect(openSettings).toHaveBeenCalled());
  });

  it('sends a test deposit and shows its confirmations', async () => {
    login();
    let sent = false;
    const calls = mockApi({
      'asset/wallet/getCoins': coinsUsdtEthBtc,
      'asset/wallet/getDepositAddress': { coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, minDeposit: '1', confirmations: 12, demoDeposit: true },
      'asset/wallet/demoDeposit': () => {
        sent = true;
        return { txHash: depositConfirming3of12.txHash };
      },
      'asset/wallet/getRecords': () => ({
        type: 'coinCharging',
        total: sent ? 1 : 0,
        deposits: sent ? [depositConfirming3of12] : [],
        withdrawals: [],
        transfers: [],
      }),
    });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT' });
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test deposit of 1000 USDT' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'asset/wallet/demoDeposit')?.form).toEqual({ coin: 'USDT', chain: 'ETH', amount: '1000' }));
    expect(await screen.findByText('3/12 confirmations')).toBeInTheDocument();
    expect(screen.getByText('+1,000.00 USDT')).toBeInTheDocument();
  });
});

describe('WithdrawCoinPage', () => {
  const routes = (info = withdrawInfoUsdt500, withdraw: unknown = { ...withdrawalRejected, id: '9', status: 'REVIEW', reason: '' }) => ({
    'asset/wallet/getCoins': coinsUsdtEthBtc,
    'asset/wallet/getWithdrawInfo': info,
    'asset/wallet/withdraw': withdraw,
    'asset/wallet/getRecordDetail': { type: 'withdrawCoin', deposit: null, withdrawal: withdrawalRejected, transfer: null },
    'asset/asset/getAssets': assetsUsdtInSpot8410,
  });

  it('says the funding account pays, shows the coin in the other accounts, and opens the transfer into funding', async () => {
    login();
    mockApi(routes({ ...withdrawInfoUsdt500, available: '0', maxWithdraw: '0' }));
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT' });
    expect(await screen.findByText('Available in Funding')).toBeInTheDocument();
    expect(screen.getByTestId('withdraw-available')).toHaveTextContent('0.00 USDT');
    const others = await screen.findByRole('list', { name: 'Your other accounts' });
    expect(
      within(others)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Spot8,410.00 USDT', 'USDT-M futures12.50 USDT', 'Fiat0.00 USDT']);
    expect(screen.getByText(/Withdrawals are paid from your Funding account/)).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Paste an Ethereum (ERC20) address')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    const where = new URL((await screen.findByTestId('where')).textContent ?? '', 'http://x');
    expect(where.pathname).toBe('/assets/transfer');
    expect(Object.fromEntries(where.searchParams)).toEqual({ coin: 'USDT', from: 'SPOT', to: 'ASSETS', returnTo: '/assets/withdrawCoin?coin=USDT&chain=ETH' });
  });

  it('checks the address and the amount before any request', async () => {
    login();
    const calls = mockApi(routes());
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT' });
    expect(await screen.findByTestId('withdraw-available')).toHaveTextContent('500.00 USDT');
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    submit();
    expect(await screen.findByText('Please enter the withdrawal address')).toBeInTheDocument();
    expect(screen.getByText('Please enter the amount')).toBeInTheDocument();
    fill('Withdrawal address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD');
    fill('Amount', '9.5');
    submit();
    expect(await screen.findByText('The address checksum is wrong: check upper and lower case, or paste it again')).toBeInTheDocument();
    expect(screen.getByText('The amount is below the minimum of 10 USDT')).toBeInTheDocument();
    fill('Withdrawal address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    fill('Amount', '300.5');
    submit();
    expect(await screen.findByText('Amount exceeds maximum (300 USDT)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect(screen.getByTestId('withdraw-receive')).toHaveTextContent('299.00 USDT');
    expect(calls.some((c) => c.path === 'asset/wallet/withdraw')).toBe(false);
  });

  it('prompts an unverified user to verify', async () => {
    login();
    mockApi(routes({ ...withdrawInfoUsdt500, verified: false }));
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT' });
    expect(await screen.findByText('Withdrawals need identity verification')).toBeInTheDocument();
    fill('Withdrawal address', aliceUsdtAddress);
    fill('Amount', '20');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('Please complete identity verification first')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Withdrawal verification' })).toBeNull();
  });

  it('sends the PIN and the e-mail code with one client id, the same on a retry', { timeout: 20_000 }, async () => {
    login();
    let tries = 0;
    const calls = mockApi(
      routes(withdrawInfoUsdt500, () =>
        ++tries === 1
          ? { errorCode: 'trans_password_wrong', errorMessage: 'Wrong transaction password' }
          : { ...withdrawalRejected, id: '9', status: 'REVIEW', reason: '' },
      ),
    );
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT' });
    await screen.findByTestId('withdraw-available');
    fill('Withdrawal address', aliceUsdtAddress);
    fill('Amount', '20.5');
    expect(screen.getByTestId('withdraw-receive')).toHaveTextContent('19.50 USDT');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const sheet = await screen.findByRole('dialog', { name: 'Withdrawal verification' });
    const typePin = async (pin: string) => {
      fireEvent.focus(within(sheet).getByLabelText('Transaction password'));
      for (const d of pin) {
        await act(async () => {
          fireEvent.click(screen.getByRole('button', { name: d }));
        });
      }
    };
    await typePin('250816');
    fill('E-mail verification code', '123456');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm withdrawal' }));
    await waitFor(() => expect(tries).toBe(1));
    await typePin('250817');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm withdrawal' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/withdrawCoinSuccess?id=9');
    const sent = calls.filter((c) => c.path === 'asset/wallet/withdraw').map((c) => c.form);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, amount: '20.5', transPassword: '250817', code: '123456' });
    expect(sent[0]!.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.clientId).toBe(sent[0]!.clientId);
  });
});

describe('TransferPage', () => {
  const assets = {
    totalUsdt: '0',
    totalCny: '0',
    usdtCnyRate: '7.2',
    accounts: (['ASSETS', 'SPOT', 'CONTRACT', 'OTC'] as const).map((type) => ({
      type,
      totalUsdt: '0',
      totalCny: '0',
      items: [
        { coin: 'USDT', available: type === 'ASSETS' ? '120.5' : '0', frozen: '0', current: '0', convertedUsdt: '0', convertedCny: '0' },
        { coin: 'ETH', available: '0', frozen: '0', current: '0', convertedUsdt: '0', convertedCny: '0' },
      ],
    })),
  };

  it("refuses more than the available balance ('Amount exceeds maximum'), then transfers and shows the success page", async () => {
    login();
    const calls = mockApi({
      'asset/asset/getAssets': assets,
      'asset/wallet/transfer': { id: '3', coin: 'USDT', from: 'ASSETS', to: 'SPOT', amount: '120.5', createdAt: 1 },
    });
    renderPage(<TransferPage />, { path: '/assets/transfer' });
    expect(await screen.findByTestId('transfer-available')).toHaveTextContent('120.50 USDT');
    fill('Amount', '120.50000001');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByText('Amount exceeds maximum')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/tranferSuccess?coin=USDT&from=ASSETS&to=SPOT&amount=120.5');
    const form = calls.find((c) => c.path === 'asset/wallet/transfer')!.form;
    expect(form).toMatchObject({ coin: 'USDT', from: 'ASSETS', to: 'SPOT', amount: '120.5' });
    expect(form.clientId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('swaps from and to', async () => {
    login();
    mockApi({ 'asset/asset/getAssets': assets });
    renderPage(<TransferPage />, { path: '/assets/transfer' });
    await screen.findByTestId('transfer-available');
    fireEvent.click(screen.getByRole('button', { name: 'Swap from and to' }));
    expect(screen.getByRole('button', { name: 'From: Spot' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'To: Funding' })).toBeInTheDocument();
    expect(screen.getByTestId('transfer-available')).toHaveTextContent('0.00 USDT');
  });
});

describe('TransferPage opened from the withdraw form', () => {
  it('is prefilled from Spot into Funding and goes back to the withdrawal when done', async () => {
    login();
    const calls = mockApi({
      'asset/asset/getAssets': assetsUsdtInSpot8410,
      'asset/wallet/transfer': { id: '4', coin: 'USDT', from: 'SPOT', to: 'ASSETS', amount: '8410', createdAt: 1 },
    });
    const back = '/assets/withdrawCoin?coin=USDT&chain=ETH';
    renderPage(<TransferPage />, {
      path: '/assets/transfer',
      url: `/assets/transfer?${new URLSearchParams({ coin: 'USDT', from: 'SPOT', to: 'ASSETS', returnTo: back })}`,
    });
    expect(await screen.findByTestId('transfer-available')).toHaveTextContent('8,410.00 USDT');
    expect(screen.getByRole('button', { name: 'From: Spot' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'To: Funding' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByTestId('where')).toHaveTextContent(back);
    expect(calls.find((c) => c.path === 'asset/wallet/transfer')!.form).toMatchObject({ coin: 'USDT', from: 'SPOT', to: 'ASSETS', amount: '8410' });
  });

  it('ignores a return path outside the withdraw form', async () => {
    login();
    mockApi({
      'asset/asset/getAssets': assetsUsdtInSpot8410,
      'asset/wallet/transfer': { id: '5', coin: 'USDT', from: 'SPOT', to: 'ASSETS', amount: '1', createdAt: 1 },
    });
    renderPage(<TransferPage />, { path: '/assets/transfer', url: '/assets/transfer?coin=USDT&from=SPOT&to=ASSETS&returnTo=https://evil.example/' });
    await screen.findByTestId('transfer-available');
    fill('Amount', '1');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/tranferSuccess?coin=USDT&from=SPOT&to=ASSETS&amount=1');
  });
});

describe('capital records', () => {
  it('lists the withdrawals and opens one', async () => {
    login();
    mockApi({
      'asset/wallet/getRecords': (f: Record<string, string>) => ({
        type: f.type,
        total: 1,
        deposits: [],
        withdrawals: f.type === 'withdrawCoin' ? [withdrawalRejected] : [],
        transfers: [],
      }),
    });
    renderPage(<CapitalRecordsPage />, { path: '/assets/capitalRecords', url: '/assets/capitalRecords?type=withdrawCoin' });
    expect(screen.getByRole('tab', { name: 'Withdrawals' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('-50.00')).toBeInTheDocument();
    expect(screen.getByText('Rejected')).toBeInTheDocument();
    fireEvent.click(screen.getByText('-50.00'));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/capitalRecordsDetail?type=withdrawCoin&id=7');
  });

  it('filters by coin: the chip asks the server for that coin only', async () => {
    login();
    const calls = mockApi({
      'asset/wallet/getCoins': coinsUsdtEthBtc,
      'asset/wallet/getRecords': (f: Record<string, string>) => ({
        type: f.type,
        total: 1,
        deposits: [],
        withdrawals: f.coin === 'ETH' ? [] : [withdrawalRejected],
        transfers: [],
      }),
    });
    renderPage(<CapitalRecordsPage />, { path: '/assets/capitalRecords', url: '/assets/capitalRecords?type=withdrawCoin' });
    expect(await screen.findByText('-50.00')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(await screen.findByRole('button', { name: 'ETH' }));
    expect(await screen.findByText('No records yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ETH' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls.filter((c) => c.path === 'asset/wallet/getRecords').map((c) => c.form.coin ?? '')).toEqual(['', 'ETH']);
  });

  it("shows a rejected withdrawal's reason in its timeline", async () => {
    login();
    mockApi({ 'asset/wallet/getRecordDetail': { type: 'withdrawCoin', deposit: null, withdrawal: withdrawalRejected, transfer: null } });
    renderPage(<CapitalRecordsDetailPage />, { path: '/assets/capitalRecordsDetail', url: '/assets/capitalRecordsDetail?type=withdrawCoin&id=7' });
    expect(await screen.findByText('Rejected, amount returned')).toBeInTheDocument();
    expect(screen.getByText('Address flagged by compliance')).toBeInTheDocument();
    expect(screen.getByText('49.00 USDT')).toBeInTheDocument();
  });

  it('says a completed withdrawal was sent, not that its amount is held', async () => {
    login();
    mockApi({
      'asset/wallet/getRecordDetail': {
        type: 'withdrawCoin',
        deposit: null,
        withdrawal: { ...withdrawalRejected, status: 'COMPLETED', reason: '' },
        transfer: null,
      },
    });
    renderPage(<WithdrawCoinSuccessPage />, { path: '/assets/withdrawCoinSuccess', url: '/assets/withdrawCoinSuccess?id=7' });
    expect(await screen.findByText('The withdrawal is complete: the coins were sent to the address.')).toBeInTheDocument();
    expect(screen.queryByText(/The amount is held/)).toBeNull();
  });

  it('says "Withdrawal submitted" only of a withdrawal the server returned', async () => {
    login();
    mockApi({
      'asset/wallet/getRecordDetail': (f: Record<string, string>) =>
        f.id === '7'
          ? { type: 'withdrawCoin', deposit: null, withdrawal: withdrawalRejected, transfer: null }
          : { errorCode: 'not_found', errorMessage: 'Record not found' },
    });
    const { unmount } = renderPage(<WithdrawCoinSuccessPage />, { path: '/assets/withdrawCoinSuccess', url: '/assets/withdrawCoinSuccess?id=7' });
    expect(await screen.findByText('Withdrawal submitted')).toBeInTheDocument();
    unmount();
    const noId = renderPage(<WithdrawCoinSuccessPage />, { path: '/assets/withdrawCoinSuccess', url: '/assets/withdrawCoinSuccess' });
    expect(await screen.findByText('No withdrawal to show here. Your withdrawals are in the withdrawal records.')).toBeInTheDocument();
    expect(screen.queryByText('Withdrawal submitted')).toBeNull();
    noId.unmount();
    renderPage(<WithdrawCoinSuccessPage />, { path: '/assets/withdrawCoinSuccess', url: '/assets/withdrawCoinSuccess?id=999' });
    expect(await screen.findByText('Record not found')).toBeInTheDocument();
    expect(screen.queryByText('Withdrawal submitted')).toBeNull();
  });
});
