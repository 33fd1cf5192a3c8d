/**
 * Journey 5d: a spot OCO on the trade screen (docs/conditional-orders.md, OCO order lists; Binance app's OCO). A new
 * user (demo funds, a nickname, BTC bought at market through the API) opens /transaction in en: the order type tabs
 * (Limit, Market, Stop, Trailing stop, OCO) stay on one line at 390 px, in en and in zh; chooses Sell and OCO, types a
 * limit price 5% above the last price, a trigger 5% below and a stop-limit price 6% below, and an amount; the
 * confirmation shows both legs ("Take profit: sells at ...", "Stop loss: when the last price falls to ... or below,
 * sells at ..."); Open orders shows one OCO card with its two legs (Limit, Stop-limit with "≤ <trigger>") and one
 * Cancel; cancelled, the card leaves Open orders and Order history shows the list cancelled with both legs
 * Cancelled. The prices are 5% away from the market, which the demo bots do not move in the seconds this takes.
 * Screenshots at 390x844: docs/screenshots/review/spot-oco-*.png.
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { apiGet, lookOf, phoneAs } from './otc-support';
import { apiPost, freshEmail, grouped, registerByApi } from './support';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'review');

interface CoinInfo {
  pair: { price: string; tickSize: string; priceDecimals: number };
}

/** `percent` % of `price`, down to the tick, as a decimal string at the market's decimals. */
function priceAt(price: string, percent: bigint, tick: string, d: number): string {
  const t = rescale(parseDec(tick), d, 'down').units;
  return formatDecimal(((rescale(parseDec(price), d, 'down').units * percent) / 100n / t) * t, d);
}

async function lastPrice(request: APIRequestContext): Promise<CoinInfo['pair']> {
  return (await apiGet<CoinInfo>(request, 'data/data/getCoinInfo?pairsName=BTC/USDT', {})).pair;
}

/** The tops of the order type tabs of the form: one value when they sit on one line. */
async function typeTabRows(p: Page, name: string): Promise<number[]> {
  const tabs = p.getByRole('tablist', { name }).getByRole('tab');
  // after a language switch the list is re-rendered under its new name: wait for it before measuring
  await expect(tabs.first()).toBeVisible();
  const tops = new Set<number>();
  for (const tab of await tabs.all()) {
    const box = await tab.boundingBox();
    if (box) tops.add(Math.round(box.y));
  }
  return [...tops];
}

test('sell OCO: one-line type tabs, form, confirmation of both legs, one card of two legs in open orders, cancel, history', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const s = await registerByApi(request, freshEmail('j5d'), 'Journey5dpass');
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `j5d${Date.now() % 1_000_000}` }, s);
  // BTC to sell: 4,000 of the 10,000 demo USDT at market.
  await apiPost(request, 'entrust/entrust/setEntrust', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', total: '4000' }, s);

  const p = await phoneAs(browser, s);
  await p.goto('/transaction');
  await expect(p.getByRole('button', { name: 'Select trading pair, current BTC/USDT' })).toBeVisible();

  // --- The five type tabs on one line, in zh (the longer labels) and en ---
  await lookOf(p, 'zh', 'default');
  await expect(p.getByRole('tablist', { name: '委托类型' }).getByRole('tab', { name: 'OCO' })).toHaveCount(1);
  expect(await typeTabRows(p, '委托类型')).toHaveLength(1);
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-tabs-zh.png') });
  await lookOf(p, 'en', 'default');
  expect(await typeTabRows(p, 'Order type')).toHaveLength(1);
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-tabs-en.png') });

  const form = p.getByRole('form', { name: /^(Buy|Sell) BTC$/ });
  await form.getByRole('tablist', { name: 'Order side' }).getByRole('tab', { name: 'Sell' }).click();
  await form.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'OCO', exact: true }).click();

  // --- Limit 5% above the last price, trigger 5% below, stop-limit 6% below ---
  const pair = await lastPrice(request);
  const limit = priceAt(pair.price, 105n, pair.tickSize, pair.priceDecimals);
  const trigger = priceAt(pair.price, 95n, pair.tickSize, pair.priceDecimals);
  const stopLimit = priceAt(pair.price, 94n, pair.tickSize, pair.priceDecimals);
  await p.getByLabel('Limit price', { exact: true }).fill(limit);
  await p.getByLabel('Trigger price', { exact: true }).fill(trigger);
  await p.getByLabel('Stop-limit price', { exact: true }).fill(stopLimit);
  await p.getByLabel('Amount', { exact: true }).fill('0.001');
  await expect(p.getByRole('alert')).toHaveCount(0);
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-form.png') });
  await p.getByRole('button', { name: 'Sell BTC' }).click();
  const confirm = p.getByRole('dialog', { name: 'Confirm order' });
  await expect(confirm.getByTestId('oco-take-profit')).toHaveText(`Take profit: sells at ${grouped(limit)} USDT`);
  await expect(confirm.getByTestId('oco-stop-loss')).toHaveText(
    `Stop loss: when the last price falls to ${grouped(trigger)} USDT or below, sells at ${grouped(stopLimit)} USDT`,
  );
  await expect(confirm).toContainText('OCO · Sell');
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-confirm.png') });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();

  // --- Open orders: one OCO card, its two legs, one Cancel ---
  const open = p.getByRole('list', { name: 'Open orders' });
  const card = open.getByRole('listitem', { name: 'BTC/USDT Sell OCO' });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  const limitLeg = card.getByRole('listitem', { name: 'Limit', exact: true });
  const stopLeg = card.getByRole('listitem', { name: 'Stop-limit', exact: true });
  await expect(limitLeg).toContainText(grouped(limit));
  await expect(limitLeg).toContainText('Pending');
  await expect(stopLeg).toContainText(`≤ ${grouped(trigger)}`);
  await expect(stopLeg).toContainText(grouped(stopLimit));
  await expect(card.getByRole('button', { name: 'Cancel' })).toHaveCount(1);
  // The two legs are the only open orders: the count on the tab says 2, the list one card.
  await expect(p.getByRole('tablist', { name: 'Orders' }).getByRole('tab', { name: 'Open orders (2)' })).toBeVisible();
  await expect(open.locator(':scope > li')).toHaveCount(1);
  await card.scrollIntoViewIfNeeded();
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-open.png') });

  // --- Cancel: both legs cancelled, the list in the history ---
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toHaveCount(0, { timeout: 30_000 });
  await p.getByRole('tablist', { name: 'Orders' }).getByRole('tab', { name: 'Order history' }).click();
  const ended = p.getByRole('list', { name: 'Order history' }).getByRole('listitem', { name: 'BTC/USDT Sell OCO' });
  await expect(ended).toHaveCount(1, { timeout: 30_000 });
  await expect(ended.getByTestId('oco-outcome')).toHaveText('Cancelled');
  await expect(ended.getByRole('listitem', { name: 'Limit', exact: true })).toContainText('Cancelled');
  await expect(ended.getByRole('listitem', { name: 'Stop-limit', exact: true })).toContainText('Cancelled');
  await ended.scrollIntoViewIfNeeded();
  await p.screenshot({ path: path.join(SHOTS, 'spot-oco-history.png') });
  const history = await apiGet<{ records: { orderListId?: string; listLeg?: string; status: string }[] }>(
    request,
    'entrust/entrust/getEntrustList?type=history&pairsName=BTC/USDT',
    s,
  );
  const legs = history.records.filter((r) => r.orderListId);
  expect(legs.map((r) => `${r.listLeg} ${r.status}`).sort()).toEqual(['STOP_LOSS CANCELED', 'TAKE_PROFIT CANCELED']);
  await p.context().close();
});
