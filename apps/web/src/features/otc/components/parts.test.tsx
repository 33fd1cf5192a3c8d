// Component test of an ad's merchant line (Binance P2P shows each merchant's 30-day orders, completion rate and
// average release time on every ad): the release time in minutes rounded to a tenth, left out while the merchant has
// released nothing; en and zh.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../../../shared/i18n';
import { MerchantLine, releaseMinutes } from './parts';

afterEach(cleanup);

describe('releaseMinutes', () => {
  it('rounds seconds to a tenth of a minute, half up', () => {
    expect(releaseMinutes(31)).toBe('0.5');
    expect(releaseMinutes(2)).toBe('0.0');
    expect(releaseMinutes(3)).toBe('0.1');
    expect(releaseMinutes(60)).toBe('1.0');
    expect(releaseMinutes(926)).toBe('15.4');
    expect(releaseMinutes(927)).toBe('15.5');
  });
});

describe('MerchantLine', () => {
  const m = { userId: '7', nickName: 'DemoMerchant', orders30d: 12, completionRate30d: '92.31', avgReleaseSeconds: 45 };
  it('shows orders, completion rate and the average release time', async () => {
    await i18n.changeLanguage('en');
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <MerchantLine m={m} />
      </I18nextProvider>,
    );
    expect(container.querySelector('.otc-merchant-stats')?.textContent).toBe('12 orders (30d) | 92.31% completion | 0.8 min avg. release');
  });
  it('in Chinese, and without a release time before the first release', async () => {
    await i18n.changeLanguage('zh');
    const { container } = render(
      <I18nextProvider i18n={i18n}>
        <MerchantLine m={{ ...m, avgReleaseSeconds: 0 }} />
      </I18nextProvider>,
    );
    expect(container.querySelector('.otc-merchant-stats')?.textContent).toBe('30日成交 12 单 | 完成率 92.31%');
    await i18n.changeLanguage('en');
  });
});
