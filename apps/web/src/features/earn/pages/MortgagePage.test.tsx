// Page test of /mortgage with a stubbed API: the products are listed with rate, term, limits and the early rule; the
// lock sheet shows the funding balance and the interest estimate (1000 at 5% for 7 days = 0.9589041), refuses an
// amount below the minimum, and sends the lock with the product, the amount and a client id, then opens the records.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { EarnProduct } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import MortgagePage from './MortgagePage';

const P7: EarnProduct = {
  productId: '1',
  coin: 'USDT',
  termDays: 7,
  apr: '5',
  minAmount: '10.00000000',
  maxAmount: '50000.00000000',
  userQuota: '100000.00000000',
  remainingQuota: '9000000.00000000',
  earlyRedeem: 'FORFEIT_INTEREST',
  status: 'ON',
};
const P30: EarnProduct = { ...P7, productId: '2', termDays: 30, apr: '8', earlyRedeem: 'NOT_ALLOWED' };
const ASSETS = {
  totalUsdt: '0',
  totalCny: '0',
  usdtCnyRate: '7.1',
  accounts: [
    {
      type: 'ASSETS',
      totalUsdt: '0',
      totalCny: '0',
      items: [{ coin: 'USDT', available: '2000.00000000', frozen: '0', current: '2000', convertedUsdt: '2000', convertedCny: '0' }],
    },
  ],
};

describe('MortgagePage', () => {
  it('lists the products and locks with the estimate shown', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'earn/earn/getProducts': [P7, P30], 'asset/asset/getAssets': ASSETS, 'earn/earn/lock': { lockId: '1' } });
    renderPage(<MortgagePage />, { path: '/mortgage' });
    const card = await screen.findByRole('listitem', { name: 'USDT 7 days' });
    expect(card).toHaveTextContent('5%');
    expect(card).toHaveTextContent('10.00 - 50,000.00 USDT');
    expect(card).toHaveTextContent('Allowed, the interest paid is deducted');
    expect(screen.getByRole('listitem', { name: 'USDT 30 days' })).toHaveTextContent('Not allowed');
    fireEvent.click(within(card).getByRole('button', { name: 'Lock' }));
    const sheet = await screen.findByRole('dialog', { name: 'Lock USDT' });
    expect(await within(sheet).findByText('2,000.00')).toBeInTheDocument();
    const amount = within(sheet).getByRole('textbox', { name: 'Amount' });
    fireEvent.change(amount, { target: { value: '5' } });
    expect(within(sheet).getByText('Lock from 10.00 to 50,000.00 USDT')).toBeInTheDocument();
    expect(within(sheet).getByRole('button', { name: 'Confirm lock' })).toBeDisabled();
    fireEvent.change(amount, { target: { value: '1000' } });
    expect(within(sheet).getByTestId('expected-interest')).toHaveTextContent('0.9589041 USDT');
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm lock' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/mort_record');
    const lock = calls.find((c) => c.path === 'earn/earn/lock');
    expect(lock?.form).toMatchObject({ productId: '1', amount: '1000' });
    expect(lock?.form.clientId).toMatch(/^lk[0-9a-z]+$/);
  });

  it('shows a rate of 3.655% rounded half up to 3.66% (not truncated to 3.65%)', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'earn/earn/getProducts': [{ ...P7, apr: '3.655' }], 'asset/asset/getAssets': ASSETS });
    renderPage(<MortgagePage />, { path: '/mortgage' });
    const card = await screen.findByRole('listitem', { name: 'USDT 7 days' });
    expect(card).toHaveTextContent('3.66%');
    expect(card).not.toHaveTextContent('3.655%');
  });
});
