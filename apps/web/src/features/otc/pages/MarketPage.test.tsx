// Component test of the OTC buy market (/transaction/transactionFabi): while the ads query has no answer the
// list shows the skeleton and not the no-ads text; an empty answer shows that text in en and zh; a failure
// shows the load-failure block, not the empty text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { mockApi } from '../../../test/mock-api';
import { stubPendingFetch } from '../../../test/pending-fetch';
import { renderPage } from '../../../test/render-page';
import BuyMarketPage from './MarketPage';

const EMPTY = { en: 'No ads match. Try another amount or payment method.', zh: '暂无符合条件的广告，请换个金额或支付方式' } as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OTC MarketPage first load', () => {
  it.each(['en', 'zh'] as const)('shows the skeleton while loading, never the empty text (%s)', async (lang) => {
    stubPendingFetch();
    renderPage(<BuyMarketPage />, { path: '/transaction/transactionFabi', lang });
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    expect(screen.queryByText(EMPTY[lang])).toBeNull();
  });

  it.each(['en', 'zh'] as const)('shows the empty text for an empty answer (%s)', async (lang) => {
    mockApi({ 'otc/otc/getAds': { records: [], total: 0, page: 1, pageSize: 20 } });
    renderPage(<BuyMarketPage />, { path: '/transaction/transactionFabi', lang });
    expect(await screen.findByText(EMPTY[lang])).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });

  it('shows the load-failure block for a failure, not the empty text', async () => {
    mockApi({ 'otc/otc/getAds': { errorCode: 'system_error', errorMessage: 'Server busy' } });
    renderPage(<BuyMarketPage />, { path: '/transaction/transactionFabi' });
    expect(await screen.findByText('Server busy')).toBeInTheDocument();
    expect(screen.queryByText(EMPTY.en)).toBeNull();
  });
});
