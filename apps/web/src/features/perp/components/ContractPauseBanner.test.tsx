// Component test of the paused contract's banner (stale index) in both languages, and of the pause carried by a mark
// tick onto the market (mergeMarket): a stale tick pauses, a fresh one resumes.
import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { ContractMarket, ContractMarkTick } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { mergeMarket } from '../hooks/use-contract-market';
import { ContractPauseBanner } from './ContractPauseBanner';

const paused = { symbol: 'BTC/USDT', paused: true, pauseReason: 'index_stale' };

afterEach(() => void i18n.changeLanguage('en'));

describe('ContractPauseBanner', () => {
  it('says why the contract is paused, in en and zh, and nothing when it trades', async () => {
    await i18n.changeLanguage('en');
    const { rerender } = render(
      <I18nextProvider i18n={i18n}>
        <ContractPauseBanner market={paused} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('alert').textContent).toMatch(/Trading paused.*index price of BTC\/USDT is stale/);
    await i18n.changeLanguage('zh');
    rerender(
      <I18nextProvider i18n={i18n}>
        <ContractPauseBanner market={paused} />
      </I18nextProvider>,
    );
    expect(screen.getByRole('alert').textContent).toMatch(/暂停交易.*BTC\/USDT 的指数价格已失效/);
    rerender(
      <I18nextProvider i18n={i18n}>
        <ContractPauseBanner market={{ symbol: 'BTC/USDT', paused: false, pauseReason: '' }} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a mark tick pauses and resumes the market', () => {
    const market = { symbol: 'BTC/USDT', markPrice: '1.00', time: 1, paused: false, pauseReason: '', pausedSince: 0 } as ContractMarket;
    const tick = (time: number, indexStale: boolean): ContractMarkTick => ({
      markPrice: '1.00',
      indexPrice: '1.00',
      fundingRate: '0',
      nextFundingTime: 0,
      time,
      indexStale,
    });
    const stale = mergeMarket(market, undefined, tick(2, true));
    expect(stale).toMatchObject({ paused: true, pauseReason: 'index_stale' });
    expect(mergeMarket(stale, undefined, tick(3, false))).toMatchObject({ paused: false, pauseReason: '', pausedSince: 0 });
  });
});
