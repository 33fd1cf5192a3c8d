/**
 * Journey 12, the contract screens at 390x844 in zh: a user with no USDT in the contract
 * account is offered the transfer when an order would need it (insufficient balance, contract variant); after a
 * transfer (API) the form shows the rule "1 lot = 1000 USDT", the available balance, the maximum lots and the cost
 * preview with the exact figure of the core's formula; a take profit below the price of a long is refused with the
 * spec's message; a 10x long of 3 lots with TP/SL, priced 1% above the mark, fills against the asks (a second user's
 * resting sell, or the liquidity bots' quotes); the position shows its fields and TP/SL; TP/SL is edited; a partial
 * close of 1 lot and the one-click close (after its confirmation) sell into the bids (a third user's, or the bots');
 * the all-orders page lists open long and the two close longs in "matched".
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { apiPost, expectToast, freshEmail, grouped, recordToasts, registerByApi } from './support';

const PASSWORD = 'Journey12pass';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'review');
const SYMBOL = 'BTC/USDT';

type Session = { token: string; userId: string };

/** A registered user with a nickname and, unless `contractUsdt` is '0', that much USDT moved into the contract account. */
async function trader(request: APIRequestContext, tag: string, contractUsdt: string): Promise<Session> {
  const s = await registerByApi(request, freshEmail(tag), PASSWORD);
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `${tag}${Date.now() % 1_000_000}` }, s);
  if (contractUsdt !== '0')
    await apiPost(
      request,
      'asset/wallet/transfer',
      { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: contractUsdt, clientId: `j12-${tag}-${Date.now()}` },
      s,
    );
  return s;
}

/** The market's rules and mark price (GET contract/market/getMarket). */
async function market(
  request: APIRequestContext,
): Promise<{ markPrice: string; tickSize: string; stepSize: string; priceDecimals: number; qtyDecimals: number }> {
  const res = await request.get(`/api/contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`);
  const body = (await res.json()) as { result: { markPrice: string; tickSize: string; stepSize: string; priceDecimals: number; qtyDecimals: number } };
  return body.result;
}

/** Opens `url` logged in as `s` (the persisted session fields of spec section 3), contract pair BTC/USDT. */
async function openAs(page: Page, s: Session, url: string): Promise<void> {
  await page.addInitScript(
    ([token, userId, sym]) => {
      localStorage.setItem('token', token!);
      localStorage.setItem('userId', userId!);
      localStorage.setItem('isLogin', 'true');
      localStorage.setItem('pairsName1', sym!);
    },
    [s.token, s.userId, SYMBOL],
  );
  await page.goto(url);
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

test('contract: transfer prompt, cost preview, TP/SL rules, 10x long of 3 lots, edit TP/SL, partial and one-click close, order tabs', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await recordToasts(page);
  const a = await trader(request, 'j12a', '0');
  const maker = await trader(request, 'j12b', '2000');
  const bidder = await trader(request, 'j12c', '2000');
  const m = await market(request);
  expect(m.markPrice, 'the contract has a mark price').not.toBe('');
  // The long's limit price 1% above the mark (on the tick): it crosses the asks (the maker's resting sell there, or
  // the liquidity bots' quotes below it) and fills; the bidder's buy rests 1% below the mark for the closes.
  const tick = rescale(parseDec(m.tickSize), m.priceDecimals, 'down').units;
  const markUnits = rescale(parseDec(m.markPrice), m.priceDecimals, 'down').units;
  const onTick = (u: bigint) => (u / tick) * tick;
  const priceUnits = onTick((markUnits * 101n) / 100n);
  const bidUnits = onTick((markUnits * 99n) / 100n);
  const price = formatDecimal(priceUnits, m.priceDecimals);
  const bidPrice = formatDecimal(bidUnits, m.priceDecimals);

  await openAs(page, a, '/contract');
  await expect(page.getByTestId('lot-rule')).toHaveText('1手 = 按委托价格计 1,000 USDT 面值');
  await expect(page.getByTestId('mark-price')).not.toHaveText('--');
  await expect(page.getByTestId('funding-countdown')).toHaveText(/^\d\d:\d\d:\d\d$/);

  // The index price opens its components: on the demo's replay, the replayed market (weight 2 of the 4) and our spot
  // market's mid (and last trade, when one is under 30 s old), each with its price, weight and status.
  await page.getByRole('button', { name: '指数价格成分' }).click();
  const sheet = page.getByRole('dialog', { name: '指数价格成分' });
  await expect(sheet.getByTestId('index-mode')).toHaveText(/^演示指数：回放市场（权重 2）/);
  await expect(sheet.getByTestId('index-source-reference')).toContainText('回放市场');
  await expect(sheet.getByTestId('index-source-reference')).toContainText(/(50\.00|66\.66)%已(采用|限幅)/);
  await expect(sheet.getByTestId('index-source-mid')).toContainText('现货中间价');
  await expect(sheet.getByTestId('index-total')).toHaveText(/^指数价格：[\d,]+\.\d\d · /);
  await page.screenshot({ path: path.join(SHOTS, 'contract-index-components-zh.png') });
  await page.mouse.click(195, 60); // the mask above the sheet closes it
  await expect(sheet).toBeHidden();

  // Nothing in the contract account: the order is refused before sending, with the way to the transfer.
  await page.getByLabel('手数', { exact: true }).fill('2');
  await page.getByRole('button', { name: '开多', exact: true }).click();
  await expect(page.getByText('合约账户余额不足，是否划转 USDT？')).toBeVisible();
  await page.getByRole('button', { name: '去划转' }).click();
  await expect(page).toHaveURL(/\/assets\/transfer\?from=SPOT&to=CONTRACT&coin=USDT/);
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '1000', clientId: `j12-a-${Date.now()}` }, a);

  await page.goto('/contract');
  await expect(page.getByTestId('available')).toContainText('1,000.00 USDT');
  // 10x leverage through its sheet.
  await page.getByTestId('leverage').click();
  await page.getByRole('button', { name: '10倍' }).click();
  await page.getByRole('button', { name: '确认' }).click();
  await expectToast(page, '杠杆已设为10倍');
  await expect(page.getByTestId('leverage')).toHaveText('10倍');

  // Cost preview of 3 lots at the price: ceil(notional / 10) + ceil(notional x 0.05%), notional = qty x price,
  // qty = 3 x 1000 / price rounded down to the step (perp/math.ts orderCost, lotsToQty), plus Binance's open loss of a
  // buy above the mark, qty x (price - mark) (perp/math.ts openLoss). The mark moves every second: the check reads the
  // mark shown beside the cost (the same mark twice around the cost's read).
  await page.getByLabel('价格', { exact: true }).fill(price);
  await page.getByLabel('手数', { exact: true }).fill('3');
  const step = rescale(parseDec(m.stepSize), m.qtyDecimals, 'down').units;
  const scaleQ = 10n ** BigInt(m.qtyDecimals);
  const scaleP = 10n ** BigInt(m.priceDecimals);
  const qty = ((3000n * scaleQ * scaleP) / priceUnits / step) * step; // qty units
  const notional8 = (qty * priceUnits * 10n ** 8n) / (scaleQ * scaleP); // USDT at 8 decimals (exact: dp + dq <= 8)
  const costText = (markShown: string): string => {
    const mk = rescale(parseDec(markShown.replace(/,/g, '')), m.priceDecimals, 'down').units;
    const loss8 = priceUnits > mk ? ((priceUnits - mk) * qty * 10n ** 8n) / (scaleQ * scaleP) : 0n;
    const cost8 = ceilDiv(notional8, 10n) + ceilDiv(notional8 * 500n, 1_000_000n) + loss8;
    const cost2 = ceilDiv(cost8, 1_000_000n); // shown rounded up to cents
    return `${grouped(formatDecimal(cost2, 2))} USDT`;
  };
  await expect
    .poll(async () => {
      const before = (await page.getByTestId('mark-price').textContent()) ?? '';
      const cost = await page.getByTestId('cost').textContent();
      const after = (await page.getByTestId('mark-price').textContent()) ?? '';
      return before === after && /\d/.test(before) ? cost === costText(before) : `mark moved ${before} -> ${after}`;
    })
    .toBe(true);
  await expect(page.getByTestId('max-lots')).toHaveText(/^\d+ 手$/);

  // TP/SL: a take profit below the price of a long is refused with the spec's message, under its field.
  await page.getByText('止盈/止损', { exact: true }).click();
  const below = onTick((markUnits * 9n) / 10n);
  const above = onTick((markUnits * 11n) / 10n);
  const belowPrice = formatDecimal(below, m.priceDecimals);
  const abovePrice = formatDecimal(above, m.priceDecimals);
  await page.getByLabel('止盈', { exact: true }).fill(belowPrice);
  await expect(page.getByRole('alert')).toHaveText('做多时止盈价须高于当前市场价格');
  await page.getByLabel('止盈', { exact: true }).fill(abovePrice);
  await page.getByLabel('止损', { exact: true }).fill(belowPrice);
  await expect(page.getByRole('alert')).toHaveCount(0);

  // A resting sell of the maker, then the long fills against it.
  await apiPost(request, 'contract/contract/placeOrder', { symbol: SYMBOL, side: 'SELL', orderType: 'LIMIT', price, lots: '5' }, maker);
  await page.getByRole('button', { name: '开多', exact: true }).click();
  await expectToast(page, '委托已成交');
  const position = page.getByTestId('position');
  await expect(position).toHaveCount(1);
  await expect(position.getByTestId('tp')).toHaveText(Number(abovePrice).toLocaleString('en-US', { minimumFractionDigits: m.priceDecimals }));
  await expect(position.getByTestId('sl')).toHaveText(Number(belowPrice).toLocaleString('en-US', { minimumFractionDigits: m.priceDecimals }));
  await expect(position.getByTestId('liq-price')).not.toHaveText('--');

  // Edit TP/SL: clear the take profit.
  await position.getByRole('button', { name: '止盈止损' }).click();
  await page.getByLabel('止盈', { exact: true }).last().fill('');
  await page.getByRole('button', { name: '保存' }).click();
  await expectToast(page, '止盈止损已保存');
  await expect(position.getByTestId('tp')).toHaveText('--');

  // Bids of the third user, then a partial close of 1 lot and the one-click close.
  await apiPost(request, 'contract/contract/placeOrder', { symbol: SYMBOL, side: 'BUY', orderType: 'LIMIT', price: bidPrice, lots: '5' }, bidder);
  const lotsBefore = Number(await position.getByTestId('hands').textContent());
  await position.getByRole('button', { name: '平仓', exact: true }).click();
  await page.getByLabel('平仓手数', { exact: true }).fill('1');
  await page.getByRole('button', { name: '确认' }).click();
  await expectToast(page, '平仓委托已提交');
  await expect(position.getByTestId('hands')).toHaveText(String(lotsBefore - 1));
  await position.getByRole('button', { name: '一键平仓' }).click();
  await expect(page.getByText(/以市价平掉 BTC\/USDT 全部做多仓位/)).toBeVisible();
  await page.getByRole('button', { name: '确认' }).click();
  await expect(page.getByText('暂无持仓')).toBeVisible();

  // All orders: matched lists the open long and the close longs.
  await page.getByRole('link', { name: '全部合约委托' }).click();
  await expect(page).toHaveURL(/\/contract\/allContract/);
  const types = page.getByTestId('trade-type');
  await expect(types.first()).toBeVisible();
  await expect.poll(async () => (await types.allTextContents()).sort()).toEqual(['平多', '平多', '开多']);
  await page.getByRole('tab', { name: '未成交' }).click();
  await expect(page.getByText('暂无委托')).toBeVisible();
});
