// Page tests of USDT on four networks with a stubbed API (test/mock-api): the deposit screen's network chooser lists
// the four networks with their minimum and confirmations, and choosing BNB Smart Chain asks for that network's address,
// names it in the row and the warning, keeps it in the query and sends the test deposit on it; the withdraw screen's
// chooser shows each network's fee and minimum with a suspended one not choosable, asks the chosen network's rules,
// refuses a TRON address at once with the chosen network's name (en and zh) and the button off, keeps the address
// across a change of network, shows the server's address_wrong_network text under the address, names the network in
// the security sheet, and lists only the chosen network's saved addresses; the records name each record's network.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AddressBookEntry, DepositRecord } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { resetToastMemory } from '../../../shared/api-client';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import CoinChargingPage from './CoinChargingPage';
import WithdrawCoinPage from './WithdrawCoinPage';
import CapitalRecordsPage from './CapitalRecordsPage';
import CapitalRecordsDetailPage from './CapitalRecordsDetailPage';
import { chainNameOf } from '../hooks/use-chain-name';
import {
  aliceUsdtAddress,
  assetsUsdtInSpot8410,
  coinsUsdtFourNetworks,
  depositConfirming3of12,
  withdrawInfoUsdt500,
  withdrawalRejected,
} from '../test-fixtures';

vi.mock('qrcode', () => ({ default: { toDataURL: () => Promise.resolve('data:image/png;base64,iVBORw0KGgo=') } }));

beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  resetToastMemory();
});

const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const DEST = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function login() {
  useAppStore.setState({ token: 't', userId: '7', isLogin: true });
}
const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

/** Opens the chooser from the network row and answers the sheet. */
async function openChooser(rowName: RegExp) {
  fireEvent.click(await screen.findByRole('button', { name: rowName }));
  return screen.findByRole('dialog', { name: /^(Choose network|选择网络)$/ });
}

describe('deposit on four networks', () => {
  it('lists the networks, and BNB Smart Chain gives its address, name, warning and test deposit', async () => {
    login();
    let sent = false;
    const bscDeposit: DepositRecord = { ...depositConfirming3of12, chain: 'BSC', confirmationsRequired: 15 };
    const calls = mockApi({
      'asset/wallet/getCoins': coinsUsdtFourNetworks,
      'asset/wallet/getDepositAddress': (f: Record<string, string>) => ({
        coin: 'USDT',
        chain: f.chain,
        address: aliceUsdtAddress,
        minDeposit: f.chain === 'ETH' ? '1' : '0.01',
        confirmations: 15,
        demoDeposit: true,
      }),
      'asset/wallet/demoDeposit': () => {
        sent = true;
        return { txHash: bscDeposit.txHash };
      },
      'asset/wallet/getRecords': () => ({ type: 'coinCharging', total: sent ? 1 : 0, deposits: sent ? [bscDeposit] : [], withdrawals: [], transfers: [] }),
    });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT' });
    expect(await screen.findByTestId('deposit-address')).toHaveTextContent(aliceUsdtAddress);
    const sheet = await openChooser(/^Network: Ethereum \(ERC20\)/);
    const radios = within(sheet).getAllByRole('radio');
    expect(radios.map((r) => r.textContent)).toEqual([
      'ETHEthereum (ERC20)Min. deposit 1.00 USDTArrives after 12 confirmations',
      'BSCBNB Smart Chain (BEP20)Min. deposit 0.01 USDTArrives after 15 confirmations',
      'ARBITRUMArbitrum OneMin. deposit 0.01 USDTArrives after 20 confirmations',
      'MATICPolygon POSMin. deposit 0.01 USDTArrives after 30 confirmations',
    ]);
    expect(radios[0]).toHaveAttribute('aria-checked', 'true');
    // Withdrawals on Polygon are suspended, deposits are not: every network can be chosen for a deposit.
    expect(radios.every((r) => !(r as HTMLButtonElement).disabled)).toBe(true);
    fireEvent.click(within(sheet).getByRole('radio', { name: /BNB Smart Chain/ }));

    expect(await screen.findByRole('button', { name: 'Network: BNB Smart Chain (BEP20). Choose another' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === 'asset/wallet/getDepositAddress' && c.form.chain === 'BSC')).toBe(true));
    expect(await screen.findByRole('note')).toHaveTextContent('Send only USDT on BNB Smart Chain (BEP20) to this address.');
    fireEvent.click(await screen.findByRole('button', { name: 'Send a test deposit of 1000 USDT' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'asset/wallet/demoDeposit')?.form).toEqual({ coin: 'USDT', chain: 'BSC', amount: '1000' }));
    const recent = await screen.findByRole('region', { name: 'Latest deposits' });
    expect(await within(recent).findByText('3/15 confirmations')).toBeInTheDocument();
    expect(within(recent).getByText('BSC')).toBeInTheDocument();
  });

  it('opens on the network of the query, and says it in Chinese', async () => {
    login();
    mockApi({
      'asset/wallet/getCoins': coinsUsdtFourNetworks,
      'asset/wallet/getDepositAddress': (f: Record<string, string>) => ({
        coin: 'USDT',
        chain: f.chain,
        address: aliceUsdtAddress,
        minDeposit: '0.01',
        confirmations: 20,
        demoDeposit: false,
      }),
      'asset/wallet/getRecords': { type: 'coinCharging', total: 0, deposits: [], withdrawals: [], transfers: [] },
    });
    renderPage(<CoinChargingPage />, { path: '/assets/coinCharging', url: '/assets/coinCharging?coin=USDT&chain=ARBITRUM', lang: 'zh' });
    expect(await screen.findByRole('button', { name: '网络：Arbitrum One，选择其他网络' })).toBeInTheDocument();
    expect(await screen.findByRole('note')).toHaveTextContent('请仅向此地址充入 Arbitrum One 网络的 USDT');
    const sheet = await openChooser(/^网络：/);
    expect(within(sheet).getByRole('radio', { name: /Arbitrum One/ })).toHaveAttribute('aria-checked', 'true');
    expect(within(sheet).getByRole('radio', { name: /BNB Smart Chain/ })).toHaveTextContent('最小充币额 0.01 USDT15 个网络确认后到账');
  });
});

describe('withdraw on four networks', () => {
  const routes = (extra: Record<string, unknown> = {}) => ({
    'asset/wallet/getCoins': coinsUsdtFourNetworks,
    'asset/wallet/getWithdrawInfo': (f: Record<string, string>) => {
      const c = coinsUsdtFourNetworks[0]!.chains.find((x) => x.chain === f.chain)!;
      return { ...withdrawInfoUsdt500, chain: f.chain, minWithdraw: c.minWithdraw, withdrawFee: c.withdrawFee, withdrawDecimals: c.withdrawDecimals };
    },
    'asset/asset/getAssets': assetsUsdtInSpot8410,
    ...extra,
  });

  it("lists each network's fee and minimum, a suspended one not choosable, and asks the chosen network's rules", async () => {
    login();
    const calls = mockApi(routes());
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT' });
    await screen.findByTestId('withdraw-available');
    const sheet = await openChooser(/^Network: Ethereum \(ERC20\)/);
    expect(
      within(sheet)
        .getAllByRole('radio')
        .map((r) => r.textContent),
    ).toEqual([
      'ETHEthereum (ERC20)Fee 1.00 USDTMin. withdrawal 10.00 USDTArrives after 12 confirmations',
      'BSCBNB Smart Chain (BEP20)Fee 0.10 USDTMin. withdrawal 1.00 USDTArrives after 15 confirmations',
      'ARBITRUMArbitrum OneFee 0.20 USDTMin. withdrawal 2.00 USDTArrives after 20 confirmations',
      'MATICSuspendedPolygon POSFee 0.30 USDTMin. withdrawal 2.00 USDTArrives after 30 confirmations',
    ]);
    expect(within(sheet).getByRole('radio', { name: /Polygon POS/ })).toBeDisabled();
    fireEvent.click(within(sheet).getByRole('radio', { name: /Arbitrum One/ }));
    await waitFor(() => expect(calls.some((c) => c.path === 'asset/wallet/getWithdrawInfo' && c.form.chain === 'ARBITRUM')).toBe(true));
    expect(await screen.findByPlaceholderText('Paste an Arbitrum One address')).toBeInTheDocument();
    expect(screen.getByText('0.20 USDT')).toBeInTheDocument();
  });

  it('refuses a TRON address at once, naming the chosen network, and keeps the address across networks', async () => {
    login();
    const calls = mockApi(routes());
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT&chain=BSC' });
    await screen.findByTestId('withdraw-available');
    fill('Withdrawal address', TRON);
    fill('Amount', '20');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This is not a BNB Smart Chain (BEP20) address: it looks like a TRON address. Choose the network the address belongs to.',
    );
    const submit = screen.getByRole('button', { name: 'Withdraw' });
    expect(submit).toBeDisabled();
    fireEvent.submit(submit.closest('form')!);
    expect(screen.queryByRole('dialog', { name: 'Withdrawal verification' })).toBeNull();

    // Another network: the address stays and is refused with that network's name ("an" before a vowel).
    fireEvent.click(within(await openChooser(/^Network: BNB/)).getByRole('radio', { name: /Arbitrum One/ }));
    expect(await screen.findByPlaceholderText('Paste an Arbitrum One address')).toBeInTheDocument();
    expect(screen.getByLabelText('Withdrawal address')).toHaveValue(TRON);
    expect(screen.getByRole('alert')).toHaveTextContent('This is not an Arbitrum One address: it looks like a TRON address.');

    fill('Withdrawal address', DEST);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeEnabled();
    expect(calls.some((c) => c.path === 'asset/wallet/withdraw')).toBe(false);
  });

  it('says it in Chinese too, for a Solana address', async () => {
    login();
    mockApi(routes());
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT&chain=MATIC', lang: 'zh' });
    // Withdrawals on Polygon are suspended: the page opens on it, says so, and the chooser offers the others.
    expect(await screen.findByText('该币种在此网络暂停提币')).toBeInTheDocument();
    fireEvent.click(within(await openChooser(/^网络：Polygon POS/)).getByRole('radio', { name: /BNB Smart Chain/ }));
    await screen.findByTestId('withdraw-available');
    fill('提币地址', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV');
    expect(screen.getByRole('alert')).toHaveTextContent('这不是 BNB Smart Chain (BEP20) 地址：它看起来是 Solana 地址。请选择地址所属的网络。');
    expect(screen.getByRole('button', { name: '提币' })).toBeDisabled();
  });

  it("names the network in the security sheet and shows the server's address_wrong_network text under the address", async () => {
    login();
    const serverText = 'This address belongs to another network; choose the network of the address (a transfer on the wrong network is lost)';
    const calls = mockApi(routes({ 'asset/wallet/withdraw': { errorCode: 'address_wrong_network', errorMessage: serverText } }));
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT&chain=ARBITRUM' });
    await screen.findByTestId('withdraw-available');
    fill('Withdrawal address', DEST);
    fill('Amount', '20');
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const sheet = await screen.findByRole('dialog', { name: 'Withdrawal verification' });
    expect(within(sheet).getByTestId('confirm-network')).toHaveTextContent('Arbitrum One');
    expect(within(sheet).getByText('19.80 USDT')).toBeInTheDocument();
    fireEvent.focus(within(sheet).getByLabelText('Transaction password'));
    for (const d of '250816') {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: d }));
      });
    }
    fill('E-mail verification code', '123456');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm withdrawal' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'asset/wallet/withdraw')?.form).toMatchObject({ chain: 'ARBITRUM', address: DEST, amount: '20' }));
    const field = screen.getByLabelText('Withdrawal address').closest('.ex-field') as HTMLElement;
    expect(await within(field).findByRole('alert')).toHaveTextContent(serverText);
  });

  it("lists only the chosen network's saved addresses", async () => {
    login();
    const book: AddressBookEntry[] = [
      { id: '1', coin: 'USDT', chain: 'BSC', address: DEST, label: 'My BSC wallet', createdAt: 1 },
      { id: '2', coin: 'USDT', chain: 'ETH', address: aliceUsdtAddress, label: 'My ERC20 wallet', createdAt: 2 },
      { id: '3', coin: 'ETH', chain: 'BSC', address: aliceUsdtAddress, label: 'Not USDT', createdAt: 3 },
    ];
    mockApi(routes({ 'asset/wallet/getAddressBook': book }));
    renderPage(<WithdrawCoinPage />, { path: '/assets/withdrawCoin', url: '/assets/withdrawCoin?coin=USDT&chain=BSC' });
    await screen.findByTestId('withdraw-available');
    fireEvent.click(screen.getByRole('button', { name: 'Address book' }));
    const sheet = await screen.findByRole('dialog', { name: 'Address book' });
    expect(within(sheet).getByText('Saved addresses on BNB Smart Chain (BEP20)')).toBeInTheDocument();
    expect(await within(sheet).findByText('My BSC wallet')).toBeInTheDocument();
    expect(within(sheet).queryByText('My ERC20 wallet')).toBeNull();
    expect(within(sheet).queryByText('Not USDT')).toBeNull();
    fireEvent.click(within(sheet).getByText('My BSC wallet'));
    expect(screen.getByLabelText('Withdrawal address')).toHaveValue(DEST);
  });
});

describe('records name the network', () => {
  it('lists each record with its network code and names it in the detail', async () => {
    login();
    const bsc = { ...withdrawalRejected, id: '8', chain: 'BSC' };
    mockApi({
      'asset/wallet/getCoins': coinsUsdtFourNetworks,
      'asset/wallet/getRecords': {
        type: 'withdrawCoin',
        total: 2,
        deposits: [],
        withdrawals: [bsc, { ...withdrawalRejected, chain: 'ARBITRUM' }],
        transfers: [],
      },
      'asset/wallet/getRecordDetail': { type: 'withdrawCoin', deposit: null, withdrawal: bsc, transfer: null },
    });
    const list = renderPage(<CapitalRecordsPage />, { path: '/assets/capitalRecords', url: '/assets/capitalRecords?type=withdrawCoin' });
    const rows = within(await screen.findByRole('list', { name: 'Withdrawals' })).getAllByRole('button');
    expect(rows.map((r) => within(r).getByText(/^(BSC|ARBITRUM|ETH|MATIC)$/).textContent)).toEqual(['BSC', 'ARBITRUM']);
    list.unmount();
    renderPage(<CapitalRecordsDetailPage />, { path: '/assets/capitalRecordsDetail', url: '/assets/capitalRecordsDetail?type=withdrawCoin&id=8' });
    const network = await screen.findByTestId('record-network');
    await waitFor(() => expect(network).toHaveTextContent('BNB Smart Chain (BEP20)'));
  });

  it('chainNameOf falls back to another coin of the network, then to the code', () => {
    expect(chainNameOf(coinsUsdtFourNetworks, 'USDT', 'MATIC')).toBe('Polygon POS');
    expect(chainNameOf(coinsUsdtFourNetworks, 'BTC', 'BSC')).toBe('BNB Smart Chain (BEP20)');
    expect(chainNameOf(coinsUsdtFourNetworks, 'USDT', 'TRX')).toBe('TRX');
    expect(chainNameOf(undefined, 'USDT', 'BSC')).toBe('BSC');
  });
});
