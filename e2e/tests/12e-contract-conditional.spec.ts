/**
 * Journey 12e: conditional contract orders in the app (docs/perp-conditional-orders.md), at 390x844 on ETH/USDT (the
 * contract lane runs its journeys one at a time, so pinning the price disturbs no other). A new user with 1,000 USDT
 * in the contract account opens a long of 2 lots at market (API), then on /contract chooses Short, the Stop-market type,
 * "Mark" as the trigger price, a trigger 5% below the mark, 1 lot and Reduce-only; the button says "Close long", the
 * confirm repeats the order (Stop-market, the trigger, Mark, 1 lot); the order is in the Conditional tab's Open list
 * (trigger, Mark, Cancel), is cancelled there and shows Cancelled in History. A second one (trigger 1% below the mark)
 * is placed the same way; the test pins the reference price (POST demo/contract/setReferencePrice, demo mode only) 2%
 * lower, the mark follows within seconds, the order triggers and sells 1 lot of the position: History shows it
 * Triggered with the order it became. Screenshots: docs/screenshots/review/contract-conditional-*.png (en day; the
 * history and the form in zh night too).
 */
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { lookOf, phoneAs } from './otc-support';
import { apiPost, freshEmail, grouped, registerByApi } from './support';

const SYMBOL = 'ETH/USDT';
const SHOTS = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'review');

type Session = { token: string; userId: string };
interface Market {
  markPrice: string;
  tickSize: string;
  priceDecimals: number;
}
interface Conditional {
  orderId: string;
  state: string;
  orderStatus: string;
  stopPrice: string;
  workingType: string;
  triggerTime: number;
}

async function get<T>(request: APIRequestContext, url: string, s?: Session): Promise<T> {
  const res = await request.get(`/api/${url}`, s ? { headers: { token: s.token, userId: s.userId } } : {});
  const body = (await res.json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${url}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}
const market = (request: APIRequestContext) => get<Market>(request, `contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`);
const conditional = (request: APIRequestContext, s: Session, tab: 'open' | 'history') =>
  get<{ records: Conditional[] }>(request, `contract/contract/getConditionalOrders?tab=${tab}&symbol=${encodeURIComponent(SYMBOL)}`, s);

/** `mark` x (1e4 + bps) / 1e4 on the tick. */
function shifted(m: Market, bps: bigint): string {
  const tick = rescale(parseDec(m.tickSize), m.priceDecimals, 'down').units;
  const p = (rescale(parseDec(m.markPrice), m.priceDecimals, 'down').units * (10_000n + bps)) / 10_000n;
  return formatDecimal((p / tick) * tick, m.priceDecimals);
}
async function pin(request: APIRequestContext, price: string): Promise<void> {
  await apiPost(request, 'demo/contract/setReferencePrice', { symbol: SYMBOL, price });
}
/** Waits until the mark price is within 0.2% of `price`. */
async function markNear(request: APIRequestContext, price: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const m = await market(request);
        const want = rescale(parseDec(price), m.priceDecimals, 'down').units;
        const got = rescale(parseDec(m.markPrice), m.priceDecimals, 'down').units;
        return (got > want ? got - want : want - got) * 500n <= want;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
}

/** Places a reduce-only stop-market sell of 1 lot on the mark price through the form, after its confirm. */
async function placeStop(p: Page, trigger: string, shot?: string): Promise<void> {
  const form = p.getByRole('form', { name: /^Open (long|short)$/ });
  await form.getByRole('tab', { name: 'Short', exact: true }).click();
  await form.getByRole('tablist', { name: 'Order type' }).getByRole('tab', { name: 'Stop-market' }).click();
  await form.getByRole('tablist', { name: 'Trigger by' }).getByRole('tab', { name: 'Mark' }).click();
  await form.getByLabel('Trigger price', { exact: true }).fill(trigger);
  await form.getByLabel('Lots', { exact: true }).fill('1');
  const reduce = form.getByLabel('Reduce-only');
  if (!(await reduce.isChecked())) await reduce.check();
  await expect(form.getByRole('alert')).toHaveCount(0);
  if (shot) await p.screenshot({ path: path.join(SHOTS, `${shot}-form.png`) });
  await form.getByRole('button', { name: 'Close long' }).click();
  const confirm = p.getByTestId('cond-confirm');
  await expect(confirm).toContainText('Stop-market');
  await expect(confirm).toContainText(grouped(trigger));
  await expect(confirm).toContainText('Mark');
  await expect(confirm).toContainText('Lots1');
  if (shot) await p.screenshot({ path: path.join(SHOTS, `${shot}-confirm.png`) });
  await p.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm).toBeHidden();
}

test('conditional contract orders: a reduce-only stop-market placed, listed and cancelled; a second one triggers', async ({ browser, request }) => {
  test.setTimeout(300_000);
  const s = await registerByApi(request, freshEmail('j12e'), 'Journey12epass');
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `j12e${Date.now() % 1_000_000}` }, s);
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '1000', clientId: `j12e-${Date.now()}` }, s);
  const m0 = await market(request);
  expect(m0.markPrice, 'the contract has a mark price').not.toBe('');
  const start = m0.markPrice;
  await pin(request, start);
  await markNear(request, start);
  const m = await market(request);
  try {
    const open = await apiPost<{ status: string }>(request, 'contract/contract/placeOrder', { symbol: SYMBOL, side: 'BUY', orderType: 'MARKET', lots: '2' }, s);
    expect(open.status).toBe('FILLED');

    const p = await phoneAs(browser, s);
    await p.addInitScript((sym) => localStorage.setItem('pairsName1', sym), SYMBOL);
    await p.goto('/contract');
    await expect(p.getByTestId('position')).toHaveCount(1, { timeout: 30_000 });

    // --- A stop 5% below the mark: placed, in the Conditional tab's Open list, cancelled there ---
    const far = shifted(m, -500n);
    await placeStop(p, far, 'contract-conditional');
    const tabs = p.getByRole('tablist', { name: 'Positions and orders' });
    await tabs.getByRole('tab', { name: /^Conditional/ }).click();
    const pending = p.getByTestId('conditional-order');
    await expect(pending).toHaveCount(1, { timeout: 30_000 });
    await expect(pending).toContainText('Stop-market');
    await expect(pending).toContainText(grouped(far));
    await expect(pending).toContainText('Mark');
    await pending.scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(SHOTS, 'contract-conditional-open.png') });
    await pending.getByRole('button', { name: 'Cancel' }).click();
    await expect(pending).toHaveCount(0, { timeout: 30_000 });
    await p.getByRole('tab', { name: 'History', exact: true }).click();
    await expect(p.getByTestId('cond-state').first()).toHaveText('Cancelled');

    // --- A stop 1% below the mark; the price is pinned 2% lower: it triggers and sells 1 lot of the long ---
    const near = shifted(m, -100n);
    await p.getByRole('tab', { name: 'Open', exact: true }).click();
    await placeStop(p, near);
    await expect(p.getByTestId('conditional-order')).toHaveCount(1, { timeout: 30_000 });
    const placed = (await conditional(request, s, 'open')).records[0]!;
    expect(placed).toMatchObject({ state: 'PENDING', workingType: 'MARK_PRICE', stopPrice: near });
    const down = shifted(m, -200n);
    await pin(request, down);
    await markNear(request, down);
    await expect
      .poll(async () => (await conditional(request, s, 'history')).records.find((r) => r.orderId === placed.orderId)?.state, { timeout: 60_000 })
      .toBe('TRIGGERED');
    const triggered = (await conditional(request, s, 'history')).records.find((r) => r.orderId === placed.orderId)!;
    expect(triggered.triggerTime).toBeGreaterThan(0);
    expect(triggered.orderStatus).toBe('FILLED');
    await expect(p.getByTestId('conditional-order')).toHaveCount(0, { timeout: 30_000 });
    await p.getByRole('tab', { name: 'History', exact: true }).click();
    const states = p.getByTestId('cond-state');
    await expect(states.first()).toHaveText('Triggered', { timeout: 30_000 });
    await expect(p.getByTestId('conditional-order').first()).toContainText(`${placed.orderId} · Filled`);
    await p.getByTestId('conditional-order').first().scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(SHOTS, 'contract-conditional-history.png') });

    // --- zh, night: the history says 已触发 and 已撤销 ---
    await lookOf(p, 'zh', 'night');
    await p
      .getByRole('tablist', { name: '持仓与委托' })
      .getByRole('tab', { name: /^条件单/ })
      .click();
    await p.getByRole('tab', { name: '历史', exact: true }).click();
    await expect(p.getByTestId('cond-state')).toHaveText(['已触发', '已撤销'], { timeout: 30_000 });
    await p.getByTestId('conditional-order').first().scrollIntoViewIfNeeded();
    await p.screenshot({ path: path.join(SHOTS, 'contract-conditional-history-zh-night.png') });
    // The form in zh night: the five types (wrapped), the trigger price with 标记 / 最新.
    const zhForm = p.getByRole('form', { name: /^(开多|开空)$/ });
    await zhForm.getByRole('tab', { name: '做空', exact: true }).click();
    await zhForm.getByRole('tablist', { name: '委托类型' }).getByRole('tab', { name: '市价止盈止损' }).click();
    await expect(zhForm.getByRole('tablist', { name: '触发价类型' }).getByRole('tab', { name: '最新' })).toHaveAttribute('aria-selected', 'true');
    await zhForm.getByLabel('触发价', { exact: true }).fill(far);
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.screenshot({ path: path.join(SHOTS, 'contract-conditional-form-zh-night.png') });
    await p.context().close();
  } finally {
    await pin(request, start);
  }
});
