// Component test of /assets: "Hide small balances" is a checkbox that starts ticked
// and hides zero balances and those below 1 USDT (USDT and LTC stay, BTC worth 0.60 USDT and the zero
// ETH go); unticking shows every coin and is remembered for the session; when every coin is small the
// empty text says so; the five account tabs are tabs and the chosen one is selected. In en and zh.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { AssetItem, Assets } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from '../api/get-assets';
import AssetsPage from './AssetsPage';

const item = (coin: string, current: string, convertedUsdt: string): AssetItem => ({
  coin,
  available: current,
  frozen: '0',
  current,
  convertedUsdt,
  convertedCny: '0',
});

function assets(items: AssetItem[]): Assets {
  return { totalUsdt: '10120.75', totalCny: '71856.00', usdtCnyRate: '7.1', accounts: [{ type: 'SPOT', totalUsdt: '10120.75', totalCny: '71856.00', items }] };
}

function setup(lang: 'en' | 'zh', data: Assets) {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ token: 't', userId: '7', isLogin: true, currentLangue: lang });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, refetchInterval: false } } });
  qc.setQueryData(assetsQueryKey('7'), data);
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/assets']}>
          <AssetsPage />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const MIXED = [item('USDT', '10000', '10000'), item('BTC', '0.00001', '0.60'), item('ETH', '0', '0'), item('LTC', '1.5', '120.75')];
const coinsShown = (listName: string) =>
  within(screen.getByRole('list', { name: listName }))
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label'));

beforeEach(() => {
  sessionStorage.clear();
  // No server in this test: the assets come from the cache, the balance channel finds no socket.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 500 })),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AssetsPage hide small balances', () => {
  it.each([
    ['en', 'Hide small balances', 'Spot'],
    ['zh', '隐藏小额资产', '币币账户'],
  ] as const)('starts ticked, hides zero and < 1 USDT, shows all when unticked (%s)', (lang, label, spot) => {
    setup(lang, assets(MIXED));
    const box = screen.getByRole('checkbox', { name: label });
    expect(box).toBeChecked();
    expect(coinsShown(spot)).toEqual(['USDT', 'LTC']);
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    expect(coinsShown(spot)).toEqual(['USDT', 'LTC', 'BTC', 'ETH']);
    expect(sessionStorage.getItem('assetsHideSmall')).toBe('0');
  });

  it('remembers an unticked box for the session', () => {
    sessionStorage.setItem('assetsHideSmall', '0');
    setup('en', assets(MIXED));
    expect(screen.getByRole('checkbox', { name: 'Hide small balances' })).not.toBeChecked();
    expect(coinsShown('Spot')).toHaveLength(4);
  });

  it('says why the list is empty when every coin is small', () => {
    setup('en', assets([item('BTC', '0', '0'), item('ETH', '0.0001', '0.30')]));
    expect(screen.getByText('No balance of 1 USDT or more. Untick “Hide small balances” to see every coin.')).toBeInTheDocument();
  });

  it('lists the five accounts as tabs, Spot selected', () => {
    setup('en', assets(MIXED));
    const tabs = within(screen.getByRole('tablist', { name: 'Accounts' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Funding', 'Spot', 'Futures', 'Fiat', 'Other']);
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
  });
});
