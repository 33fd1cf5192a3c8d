/**
 * Journey 5c: conditional spot orders on the trade screen (docs/conditional-orders.md). A new user (demo funds, a
 * nickname, BTC bought at market through the API) opens /transaction in en: chooses Sell and the Stop tab (a stop-limit: limit when triggered), types a trigger
 * 3% below the last price and sees "Stop-loss" said under it, a limit price and an amount; the confirmation says
 * "Stop-loss: sells when the last price falls to ... or below"; the order is in Open orders as a Stop-limit waiting
 * for its trigger, with "≤ <trigger>"; the same in zh (待触发); cancelled there, it leaves Open orders.
 * Then a second stop-limit order is placed (through the API, right after reading the book, so that the demo bots
 * can hardly move the last price to the trigger in between): a SELL with its trigger at the best bid when that is below
 * the last price, else a BUY with its trigger at the best ask above it; the user's 0.0001 BTC market order (API) trades
 * at that level, the last price reaches the trigger, and the app shows the order as Triggered (its limit, 5% past the
 * market, then rests on the book). Not deterministic only in that the bots' orders may move the best level between the
 * requests; the step then retries with the book read again (at most 8 times, printing each attempt).
 * Screenshots at 390x844 of the form and the open order in en/zh and day/night:
 * docs/screenshots/review/spot-conditional-*.png.
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
interface Depth {
  bids: [string, string][];
  asks: [string, string][];
}

/** `percent` % of `price`, down to the tick, as a decimal string at the market's decimals. */
function priceAt(price: string, percent: bigint, tick: string, d: number): string {
  const t = rescale(parseDec(tick), d, 'down').units;
  return formatDecimal(((rescale(parseDec(price), d, 'down').units * percent) / 100n / t) * t, d);
}

async function lastPrice(request: APIRequestContext): Promise<CoinInfo['pair']> {
  return (await apiGet<CoinInfo>(request, 'data/data/getCoinInfo?pairsName=BTC/USDT', {})).pair;
}

/** The open orders list of the trade screen (current tab). */
const openList = (p: Page, name: string) => p.getByRole('list', { name });

test('stop-limit sell: form, confirmation, waiting in open orders, cancel; a second one triggers', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const s = await registerByApi(request, freshEmail('j5c'), 'Journey5cpass');
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `j5c${Date.now() % 1_000_000}` }, s);
  // BTC to sell: 4,000 of the 10,000 demo USDT at market.
  await apiPost(request, 'entrust/entrust/setEntrust', { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', total: '4000' }, s);

  const p = await phoneAs(browser, s);
  await p.goto('/transaction');
  await expect(p.getByRole('button', { name: 'Select trading pair, current BTC/USDT' })).toBeVisible();
  const form = p.getByRole('form', { name: /^(Buy|Sell) BTC$/ });
  await form.getByRole('tablist', { name: 'Order side' }).getByRole('tab', { name: 'Sell' }).click();
  // The Stop tab (Binance zh 止盈止损) starts as a stop-limit: its "order when triggered" toggle on Limit.
  await form.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'Stop', exact: true }).click();
  await expect(form.getByRole('tablist', { name: 'Order when triggered' }).getByRole('tab', { name: 'Limit', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // --- Trigger 3% below the last price: a stop-loss; limit 1% lower still ---
  const pair = await lastPrice(request);
  const trigger = priceAt(pair.price, 97n, pair.tickSize, pair.priceDecimals);
  const limit = priceAt(pair.price, 96n, pair.tickSize, pair.priceDecimals);
  await p.getByLabel('Trigger price', { exact: true }).fill(trigger);
  await expect(p.getByTestId('sp-stop-hint')).toHaveText(`Stop-loss: last price ≤ ${grouped(trigger)}`);
  await p.getByLabel('Price', { exact: true }).fill(limit);
  await p.getByLabel('Amount', { exact: true }).fill('0.001');
  await expect(p.getByRole('alert')).toHaveCount(0);
  await p.screenshot({ path: path.join(SHOTS, 'spot-conditional-form.png') });
  await p.getByRole('button', { name: 'Sell BTC' }).click();
  const confirm = p.getByRole('dialog', { name: 'Confirm order' });
  await expect(confirm).toContainText(`Stop-loss: sells when the last price falls to ${grouped(trigger)} USDT or below`);
  await expect(confirm).toContainText('Stop-limit · Sell');
  await p.screenshot({ path: path.join(SHOTS, 'spot-conditional-confirm.png') });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();

  // --- In Open orders: a Stop-limit waiting for its trigger, cancellable ---
  const card = openList(p, 'Open orders').getByRole('listitem', { name: 'BTC/USDT Sell' });
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card).toContainText('Stop-limit');
  await expect(card).toContainText('Waiting for trigger');
  await expect(card).toContainText(`≤ ${grouped(trigger)}`);
  await card.scrollIntoViewIfNeeded();
  await p.screenshot({ path: path.join(SHOTS, 'spot-conditional-open.png') });

  // The other looks: en night, zh day, zh night (form with the trigger typed, and the open order).
  for (const [lang, theme] of [
    ['en', 'night'],
    ['zh', 'default'],
    ['zh', 'night'],
  ] as const) {
    await lookOf(p, lang, theme);
    const zh = lang === 'zh';
    const f = p.getByRole('form', { name: zh ? /^(买入|卖出) BTC$/ : /^(Buy|Sell) BTC$/ });
    await f
      .getByRole('tablist', { name: zh ? '买卖方向' : 'Order side' })
      .getByRole('tab', { name: zh ? '卖出' : 'Sell' })
      .click();
    await f
      .getByRole('tablist', { name: zh ? '委托类型' : 'Order type' })
      .getByRole('tab', { name: zh ? '止盈止损' : 'Stop', exact: true })
      .click();
    await p.getByLabel(zh ? '触发价' : 'Trigger price', { exact: true }).fill(trigger);
    await expect(p.getByTestId('sp-stop-hint')).toHaveText(zh ? `止损：最新价 ≤ ${grouped(trigger)}` : `Stop-loss: last price ≤ ${grouped(trigger)}`);
    await p.getByLabel(zh ? '价格' : 'Price', { exact: true }).fill(limit);
    await p.getByLabel(zh ? '数量' : 'Amount', { exact: true }).fill('0.001');
    const tag = `${lang}-${theme === 'default' ? 'day' : 'night'}`;
    await p.screenshot({ path: path.join(SHOTS, `spot-conditional-form-${tag}.png`) });
    const c = openList(p, zh ? '当前委托' : 'Open orders').getByRole('listitem', { name: zh ? 'BTC/USDT 卖出' : 'BTC/USDT Sell' });
    await expect(c).toContainText(zh ? '待触发' : 'Waiting for trigger');
    await expect(c).toContainText(zh ? '限价止盈止损' : 'Stop-limit');
    await c.scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(SHOTS, `spot-conditional-open-${tag}.png`) });
  }

  // --- Cancel the pending order (zh night now) ---
  const zhCard = openList(p, '当前委托').getByRole('listitem', { name: 'BTC/USDT 卖出' });
  await zhCard.getByRole('button', { name: '撤单' }).click();
  await expect(zhCard).toHaveCount(0, { timeout: 30_000 });
  await p.getByRole('tablist', { name: '委托' }).getByRole('tab', { name: '历史委托' }).click();
  const cancelled = p.getByRole('list', { name: '历史委托' }).getByRole('listitem', { name: 'BTC/USDT 卖出' });
  await expect(cancelled.first()).toContainText('已撤单');
  await expect(cancelled.first()).toContainText('待触发');

  // --- A second stop-limit order, triggered by the user's own market order taking the book to its trigger ---
  // A SELL stop-loss triggered at a bid below the last price, or (when the best bid is the last price, after a
  // taker sold into it) a BUY stop-loss triggered at an ask above it: the best level beyond the last price is
  // reached by a 0.0001 BTC market order. Its limit (5% past the market) then rests on the book.
  let triggered: 'SELL' | 'BUY' | null = null;
  for (let attempt = 0; attempt < 8 && !triggered; attempt++) {
    const info = await lastPrice(request);
    const d = info.priceDecimals;
    const book = await apiGet<Depth>(request, 'data/data/getDepth?pairsName=BTC/USDT&limit=20', {});
    const last = rescale(parseDec(info.price), d, 'down').units;
    const bid = book.bids[0];
    const ask = book.asks[0];
    const side: 'SELL' | 'BUY' | null =
      bid && rescale(parseDec(bid[0]), d, 'down').units < last ? 'SELL' : ask && rescale(parseDec(ask[0]), d, 'down').units > last ? 'BUY' : null;
    if (!side) {
      await p.waitForTimeout(2000);
      continue;
    }
    const target = side === 'SELL' ? bid![0] : ask![0];
    const placed = await request.post('/api/entrust/entrust/setEntrust', {
      form: {
        pairsName: 'BTC/USDT',
        side,
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: priceAt(info.price, side === 'SELL' ? 105n : 95n, info.tickSize, d),
        amount: '0.001',
        stopType: 'STOP_LOSS',
        stopPrice: target,
      },
      headers: s,
    });
    const env = (await placed.json()) as { status: string; errorCode: string; result: { id: string } };
    if (env.status !== 'SUCCEED') {
      // The last price moved to the trigger meanwhile (would_trigger_immediately): read the book again.
      console.log(`attempt ${attempt}: ${side} ${env.errorCode}`);
      continue;
    }
    const placedId = env.result.id;
    await apiPost(request, 'entrust/entrust/setEntrust', { pairsName: 'BTC/USDT', side, orderType: 'MARKET', amount: '0.0001' }, s);
    const detail = await apiGet<{ triggerState: string }>(request, `entrust/entrust/getEntrustDetail?id=${placedId}`, s);
    console.log(`attempt ${attempt}: ${side} stop at ${target} (last ${info.price}), state ${detail.triggerState}`);
    if (detail.triggerState !== 'PENDING') triggered = side;
    else await apiPost(request, 'entrust/entrust/cancelEntrust', { id: placedId }, s);
  }
  expect(triggered, 'a stop-limit order triggered within 8 attempts').not.toBeNull();
  await p
    .getByRole('tablist', { name: '委托' })
    .getByRole('tab', { name: /^当前委托/ })
    .click();
  const working = openList(p, '当前委托').getByRole('listitem', { name: triggered === 'SELL' ? 'BTC/USDT 卖出' : 'BTC/USDT 买入' });
  await expect(working).toHaveCount(1, { timeout: 30_000 });
  await expect(working).toContainText('已触发');
  await working.scrollIntoViewIfNeeded();
  await p.screenshot({ path: path.join(SHOTS, 'spot-conditional-triggered-zh-night.png') });
  await working.getByRole('button', { name: '撤单' }).click();
  await expect(working).toHaveCount(0, { timeout: 30_000 });

  // --- The trailing stop form (en, day): delta in percent, optional activation price, limit or market ---
  await lookOf(p, 'en', 'default');
  const tf = p.getByRole('form', { name: /^(Buy|Sell) BTC$/ });
  await tf.getByRole('tablist', { name: 'Order side' }).getByRole('tab', { name: 'Sell' }).click();
  await tf.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'Trailing stop', exact: true }).click();
  await p.getByLabel('Trailing delta', { exact: true }).fill('25');
  await expect(p.getByRole('alert')).toHaveText('Trailing delta must be 0.1% to 20%');
  await p.getByLabel('Trailing delta', { exact: true }).fill('1.5');
  await expect(p.getByRole('alert')).toHaveCount(0);
  await tf.getByRole('tablist', { name: 'Order when triggered' }).getByRole('tab', { name: 'Market', exact: true }).click();
  await p.getByLabel('Amount', { exact: true }).fill('0.001');
  await p.screenshot({ path: path.join(SHOTS, 'spot-conditional-trailing-form.png') });
  await p.getByRole('button', { name: 'Sell BTC' }).click();
  const tconfirm = p.getByRole('dialog', { name: 'Confirm order' });
  await expect(tconfirm).toContainText('Trailing stop: sells when the last price falls 1.5% from its highest since the order is placed');
  await tconfirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(tconfirm).toBeHidden();
  await p.context().close();
});
