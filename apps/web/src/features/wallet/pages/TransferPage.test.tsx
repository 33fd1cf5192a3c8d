// Transfer out of the contract account with positions open (stubbed API, test/mock-api): the form's maximum is the
// contract account's max withdraw amount (getAccount maxWithdrawAmount, 8,575.12345678 against a ledger balance of
// 10,000), shown as "Available" with the note saying why; "All" fills exactly that; one unit (1e-8) more is refused
// with 'Amount exceeds maximum' before any request; the maximum itself is posted. Without a limit below the ledger's
// balance (no positions) the ledger's balance is shown and there is no note; the contract account is not asked for
// when the transfer does not leave it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Assets, ContractAccount, WalletAccount } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { resetToastMemory } from '../../../shared/api-client';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import TransferPage from './TransferPage';

afterEach(() => {
  vi.unstubAllGlobals();
  resetToastMemory();
});

/** The four accounts with USDT 120.5 in funding and `contractUsdt` in the contract account. */
function assetsWithContractUsdt(contractUsdt: string): Assets {
  return {
    totalUsdt: '0',
    totalCny: '0',
    usdtCnyRate: '7.2',
    accounts: (['ASSETS', 'SPOT', 'CONTRACT', 'OTC'] as WalletAccount[]).map((type) => ({
      type,
      totalUsdt: '0',
      totalCny: '0',
      items: [
        {
          coin: 'USDT',
          available: type === 'CONTRACT' ? contractUsdt : type === 'ASSETS' ? '120.5' : '0',
          frozen: '0',
          current: '0',
          convertedUsdt: '0',
          convertedCny: '0',
        },
      ],
    })),
  } as Assets;
}

/** A contract account whose ledger balance is `available` and whose max withdraw amount is `maxWithdrawAmount`. */
function contractAccount(available: string, maxWithdrawAmount: string): ContractAccount {
  return {
    coin: 'USDT',
    available,
    frozen: '0',
    walletBalance: available,
    crossWalletBalance: available,
    crossUnrealizedPnl: '0',
    crossMarginBalance: available,
    crossMaintMargin: '0',
    unrealizedPnl: '0',
    marginBalance: available,
    positionMargin: '0',
    orderMargin: '0',
    availableBalance: maxWithdrawAmount,
    maxWithdrawAmount,
    riskLevel: '0.00',
    riskLevelPpm: 0,
  };
}

const fromContract = '/assets/transfer?from=CONTRACT&to=SPOT&coin=USDT';

describe('TransferPage out of the contract account', () => {
  it('shows the max withdraw amount, fills it with All, refuses one unit more, and posts the maximum', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({
      'asset/asset/getAssets': assetsWithContractUsdt('10000'),
      'contract/contract/getAccount': contractAccount('10000', '8575.12345678'),
      'asset/wallet/transfer': (f: Record<string, string>) => ({ id: '9', coin: 'USDT', from: 'CONTRACT', to: 'SPOT', amount: f.amount, createdAt: 1 }),
    });
    renderPage(<TransferPage />, { path: '/assets/transfer', url: fromContract });
    await waitFor(() => expect(screen.getByTestId('transfer-available')).toHaveTextContent('8,575.12345678 USDT'));
    expect(screen.getByTestId('transfer-limit-note')).toHaveTextContent('Margin and unrealized losses of open positions stay in the contract account.');

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    expect(screen.getByLabelText('Amount')).toHaveValue('8575.12345678');

    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '8575.12345679' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByText('Amount exceeds maximum')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'asset/wallet/transfer')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirm transfer' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/assets/tranferSuccess?coin=USDT&from=CONTRACT&to=SPOT&amount=8575.12345678');
    expect(calls.find((c) => c.path === 'asset/wallet/transfer')!.form).toMatchObject({ from: 'CONTRACT', to: 'SPOT', amount: '8575.12345678' });
  });

  it('shows the ledger balance without a note when nothing is held back', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'asset/asset/getAssets': assetsWithContractUsdt('250'), 'contract/contract/getAccount': contractAccount('250', '250.00000000') });
    renderPage(<TransferPage />, { path: '/assets/transfer', url: fromContract });
    expect(await screen.findByTestId('transfer-available')).toHaveTextContent('250.00 USDT');
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/getAccount')).toBe(true));
    expect(screen.getByTestId('transfer-available')).toHaveTextContent('250.00 USDT');
    expect(screen.queryByTestId('transfer-limit-note')).toBeNull();
  });

  it('does not ask for the contract account when the transfer does not leave it', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'asset/asset/getAssets': assetsWithContractUsdt('10000') });
    renderPage(<TransferPage />, { path: '/assets/transfer', url: '/assets/transfer?from=ASSETS&to=CONTRACT&coin=USDT' });
    expect(await screen.findByTestId('transfer-available')).toHaveTextContent('120.50 USDT');
    expect(calls.some((c) => c.path === 'contract/contract/getAccount')).toBe(false);
  });
});
