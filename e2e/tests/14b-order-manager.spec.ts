/**
 * Journey 14b (/orderManger, one place for open orders and history across spot and contracts). Logged
 * out, the page asks to log in. A new user (demo funds) rests a spot bid on BTC/USDT at 80% of the last price and,
 * after a transfer to the contract account, a 1-lot bid on the LTC/USDT perpetual at 70% of the mark (both through
 * the API). On /orderManger: Spot / Open orders lists the spot bid; it is cancelled there and moves to Order history;
 * Futures / Open orders lists the contract bid as "Open long", cancelled there too, then under history. In en/day,
 * then zh/night. Screenshots: docs/screenshots/order-manager{,-zh-night}.png.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { apiGet, lookOf, phoneAs } from './otc-support';
import { apiPost, freshEmail, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');

/** `fraction` (percent) of a decimal price, rounded down to the tick, as a decimal string. */
function priceAt(price: string, percent: bigint, tick: string, decimals: number): string {
  const t = rescale(parseDec(tick), decimals, 'down').units;
  return formatDecimal(((rescale(parseDec(price), decimals, 'down').units * percent) / 100n / t) * t, decimals);
}

test('orders of both markets in one place: open, cancel, history', async ({ browser, page, request }) => {
  // Logged out: the log-in prompt.
  await page.goto('/orderManger');
  await expect(page.getByRole('button', { name: /log in|登录/i })).toBeVisible();

  const s = await registerByApi(request, freshEmail('j14b'), 'Journey14bpass');
  const spot = await apiGet<{ pair: { price: string; tickSize: string; priceDecimals: number } }>(request, 'data/data/getCoinInfo?pairsName=BTC/USDT', {});
  const bidPrice = priceAt(spot.pair.price, 80n, spot.pair.tickSize, spot.pair.priceDecimals);
  await apiPost(
    request,
    'entrust/entrust/setEntrust',
    { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: bidPrice, amount: '0.001' },
    s,
  );
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '500', clientId: `j14b-${Date.now()}` }, s);
  const perp = await apiGet<{ markPrice: string; tickSize: string; priceDecimals: number }>(request, 'contract/market/getMarket?symbol=LTC/USDT', {});
  expect(perp.markPrice, 'LTC/USDT has a mark price').not.toBe('');
  await apiPost(
    request,
    'contract/contract/placeOrder',
    { symbol: 'LTC/USDT', side: 'BUY', orderType: 'LIMIT', price: priceAt(perp.markPrice, 70n, perp.tickSize, perp.priceDecimals), lots: '1' },
    s,
  );

  const p = await phoneAs(browser, s);
  await p.goto('/orderManger');
  await expect(p.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const spotOpen = p.getByRole('list', { name: 'Open orders' }).getByRole('listitem', { name: 'BTC/USDT Buy' });
  await expect(spotOpen).toHaveCount(1);
  await p.screenshot({ path: path.join(SHOTS, 'order-manager.png') });
  await spotOpen.getByRole('button', { name: 'Cancel' }).click();
  await expect(p.getByRole('list', { name: 'Open orders' })).toHaveCount(0);
  await p.getByRole('tab', { name: 'Order history' }).click();
  await expect(p.getByRole('list', { name: 'Order history' }).getByRole('listitem', { name: 'BTC/USDT Buy' })).toHaveCount(1);

  await p.getByRole('tab', { name: 'Futures' }).click();
  await p.getByRole('tab', { name: 'Open orders' }).click();
  const perpOpen = p.getByRole('list', { name: 'Unmatched' }).getByRole('listitem', { name: 'LTC/USDT Open long' });
  await expect(perpOpen).toHaveCount(1);
  await lookOf(p, 'zh', 'night');
  await p.getByRole('tab', { name: '合约' }).click();
  await expect(p.getByRole('listitem', { name: 'LTC/USDT 开多' })).toHaveCount(1);
  await p.screenshot({ path: path.join(SHOTS, 'order-manager-zh-night.png') });
  await p.getByRole('listitem', { name: 'LTC/USDT 开多' }).getByRole('button', { name: '撤单' }).click();
  await expect(p.getByRole('listitem', { name: 'LTC/USDT 开多' })).toHaveCount(0);
  await p.getByRole('tab', { name: '历史委托' }).click();
  await expect(p.getByRole('listitem', { name: 'LTC/USDT 开多' })).toHaveCount(1);
  await p.context().close();
});
