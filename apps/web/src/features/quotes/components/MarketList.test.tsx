// Component test of the markets list: rows show price at the market's precision, the abbreviated
// volume and the signed change; the header sorts by change and price; the star asks a logged-out
// visitor to log in and, logged in, adds or removes the pair with the same toast as the detail page;
// tapping a row opens it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { Pair } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { MarketList } from './MarketList';

const pair = (tokenCur: string, price: string, updown: string, volume: string): Pair => ({
  pairsName: `${tokenCur}/USDT`,
  tokenCur,
  mainCur: 'USDT',
  type: 'SPOT',
  price,
  chPrice: '1',
  updown,
  volume,
  quoteVolume: volume,
  high: '0',
  low: '0',
  priceDecimals: 2,
  qtyDecimals: 4,
  tickSize: '0.01',
  stepSize: '0.0001',
  minQty: '0.0001',
  minNotional: '5',
  isNew: false,
  demoData: false,
});
const pairs = [pair('ETH', '3394.2', '2.31', '134380'), pair('BTC', '98517.06', '-0.09', '10550'), pair('ADA', '0.7', '-1.54', '9999')];

function setup(onOpen = vi.fn(), login = false, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState(
    login ? { isLogin: true, token: 't', userId: '7', currentLangue: lang } : { isLogin: false, token: '', userId: '', currentLangue: lang },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <MarketList pairs={pairs} favorites={new Set(['BTC/USDT'])} onOpen={onOpen} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return onOpen;
}

const names = () =>
  within(screen.getByRole('list'))
    .getAllByRole('button', { name: /\/USDT$/ })
    .map((b) => b.getAttribute('aria-label'));

describe('MarketList', () => {
  it('renders formatted rows', () => {
    setup();
    const eth = screen.getByRole('button', { name: 'ETH/USDT' });
    expect(eth).toHaveTextContent('3,394.20');
    expect(eth).toHaveTextContent('Vol 134.38K');
    expect(eth).toHaveTextContent('+2.31%');
    expect(screen.getByRole('button', { name: 'ADA/USDT' })).toHaveTextContent('Vol 9,999.00');
    expect(within(screen.getByRole('button', { name: 'BTC/USDT' }).closest('li')!).getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('sorts by change then by price', () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Sort by 24h change' }));
    expect(names()).toEqual(['ETH/USDT', 'BTC/USDT', 'ADA/USDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by 24h change' }));
    expect(names()).toEqual(['ADA/USDT', 'BTC/USDT', 'ETH/USDT']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Last price' }));
    expect(names()).toEqual(['BTC/USDT', 'ETH/USDT', 'ADA/USDT']);
  });

  it('guards favourites and opens a row', async () => {
    const onOpen = setup();
    fireEvent.click(within(screen.getByRole('button', { name: 'ETH/USDT' }).closest('li')!).getByRole('button', { name: 'Add to favourites' }));
    expect(await screen.findByText('You are not logged in, log in?')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'BTC/USDT' }));
    expect(onOpen).toHaveBeenCalledWith(pairs[1]);
  });

  it.each([
    ['en', 'Add to favourites', 'Added to favourites', 'Remove from favourites', 'Removed from favourites'],
    ['zh', '加入自选', '已加入自选', '取消自选', '已取消自选'],
  ] as const)('toasts a star tapped in the list, logged in (%s)', async (lang, addLabel, added, removeLabel, removed) => {
    const fetch = vi.fn(async (url: string | URL | Request) => {
      void url;
      return new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetch);
    setup(vi.fn(), true, lang);
    const eth = screen.getByRole('button', { name: 'ETH/USDT' }).closest('li')!;
    fireEvent.click(within(eth).getByRole('button', { name: addLabel }));
    expect(await screen.findByText(added)).toBeInTheDocument();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('member/member/addFavorite'))).toBe(true);
    const btc = screen.getByRole('button', { name: 'BTC/USDT' }).closest('li')!;
    fireEvent.click(within(btc).getByRole('button', { name: removeLabel }));
    expect(await screen.findByText(removed)).toBeInTheDocument();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('member/member/cancelFavorite'))).toBe(true);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});
