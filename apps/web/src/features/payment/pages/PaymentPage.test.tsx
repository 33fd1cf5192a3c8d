// Page tests of the payment methods with a stubbed API: without basic verification the page prompts and leads to
// /realname (no payment call made); verified, the list shows each method with its masked number and the switch sends
// setPaymentEnabled; the bank-card form refuses a number failing the Luhn check before asking for the transaction
// password, and with a valid one asks for the PIN and sends the card digits with it; without a transaction password a
// prompt leads to /accountCenter/postPasswordSet.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import PaymentPage from './PaymentPage';
import BankCardPage from './BankCardPage';

const KYC_NONE = {
  basic: { state: 'NONE', country: '', realName: '', idType: '', idNumber: '', rejectReason: '', submittedAt: 0, decidedAt: 0 },
  advanced: { state: 'NONE', rejectReason: '', submittedAt: 0, decidedAt: 0 },
};
const KYC_PASS = { ...KYC_NONE, basic: { ...KYC_NONE.basic, state: 'PASS', realName: '张三', idNumber: '110***1234' } };
const SECURITY = { phone: '', areaCode: '86', mail: 'a***@b.c', googleBound: false, transPasswordSet: true, withdrawLock: null, lastLogin: null };
const CARD = {
  id: '11',
  payType: 'BANK',
  realName: '张三',
  bankName: 'Bank of China',
  branch: 'Haidian',
  cardNo: '**** 1111',
  account: '',
  enabled: true,
  createdAt: 1,
};

beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

function login() {
  useAppStore.setState({ token: 't', userId: '7', isLogin: true });
}

describe('PaymentPage', () => {
  it('without a real name prompts and leads to /realname', async () => {
    login();
    const calls = mockApi({ 'member/kyc/getKyc': KYC_NONE });
    renderPage(<PaymentPage />, { path: '/payment' });
    expect(await screen.findByText('Payment methods require identity verification')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Verify now' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/realname');
    expect(calls.some((c) => c.path.startsWith('member/payment/'))).toBe(false);
  });

  it('lists the methods and switches one off', async () => {
    login();
    const calls = mockApi({
      'member/kyc/getKyc': KYC_PASS,
      'member/security/getSecurity': SECURITY,
      'member/payment/getPayments': [CARD],
      'member/payment/setPaymentEnabled': null,
    });
    renderPage(<PaymentPage />, { path: '/payment' });
    expect(await screen.findByText('**** 1111')).toBeInTheDocument();
    expect(screen.getByText('Bank of China · Haidian')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('switch', { name: 'On' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'member/payment/setPaymentEnabled')?.form).toEqual({ id: '11', enabled: 'false' }));
  });
});

describe('BankCardPage', () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it('refuses a card number failing the Luhn check, then saves a valid one with the PIN', async () => {
    login();
    const calls = mockApi({ 'member/kyc/getKyc': KYC_PASS, 'member/security/getSecurity': SECURITY, 'member/payment/addPayment': { id: '12' } });
    renderPage(<BankCardPage />, { path: '/payment/bankCard' });
    expect(await screen.findByText('张三')).toBeInTheDocument();
    fill('Bank', 'Bank of China');
    fill('Branch', 'Haidian');
    fill('Card number', '4111111111111112');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please check the card number')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Transaction password' })).toBeNull();

    fill('Card number', '4111 1111 1111 1111');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('dialog', { name: 'Transaction password' })).toBeInTheDocument();
    for (const d of '250816') {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: d }));
      });
    }
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'member/payment/addPayment')?.form).toEqual({
        payType: 'BANK',
        bankName: 'Bank of China',
        branch: 'Haidian',
        cardNo: '4111111111111111',
        transPassword: '250816',
      }),
    );
    expect(await screen.findByTestId('where')).toHaveTextContent('/payment');
  });

  it('without a transaction password leads to postPasswordSet', { timeout: 15_000 }, async () => {
    login();
    const calls = mockApi({ 'member/kyc/getKyc': KYC_PASS, 'member/security/getSecurity': { ...SECURITY, transPasswordSet: false } });
    renderPage(<BankCardPage />, { path: '/payment/bankCard' });
    expect(await screen.findByText('张三')).toBeInTheDocument();
    fill('Bank', 'Bank of China');
    fill('Branch', 'Haidian');
    fill('Card number', '4111111111111111');
    // The security states load in the background: wait for them before saving.
    await waitFor(() => expect(calls.some((c) => c.path === 'member/security/getSecurity')).toBe(true));
    await act(async () => new Promise((r) => setTimeout(r, 20)));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please set a transaction password first')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Set now' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/accountCenter/postPasswordSet');
  });
});
