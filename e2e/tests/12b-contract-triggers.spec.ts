/**
 * Journey 12b (the mark price moves, TP closes, a liquidation), at 390x844 in zh, on ETH/USDT so
 * that the pinned price never touches the other journeys' BTC market. The test moves the reference price with the
 * test-only control (POST demo/contract/setReferencePrice, refused outside demo mode); the index job takes it as
 * the index and the engine's mark price follows within seconds.
 * - A 10x long of 2 lots with a take profit +2% and a stop loss -3%: the price is pinned +3%, the take profit fires,
 *   the position is gone and its close (trade type "normal close") shows the realized PnL, which equals the closing
 *   fills' value less the opening fills' value (same quantity, a long).
 * - A 75x isolated long of 1 lot (the most the ETH brackets allow): the price is pinned -2.5% first; the position
 *   is liquidated, the user's order list shows the force close, and the liquidation record shows the lost margin.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { apiPost, freshEmail, grouped, registerByApi } from './support';

const SYMBOL = 'ETH/USDT';
const PASSWORD = 'Journey12bpass';

type Session = { token: string; userId: string };
interface Market {
  markPrice: string;
  indexPrice: string;
  tickSize: string;
  priceDecimals: number;
}
interface Order {
  orderId: string;
  tradeType: string;
  trigger: string;
  status: string;
  filledQty: string;
  filledValue: string;
  realizedPnl: string;
}

async function trader(request: APIRequestContext, tag: string, usdt: string): Promise<Session> {
  const s = await registerByApi(request, freshEmail(tag), PASSWORD);
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `${tag}${Date.now() % 1_000_000}` }, s);
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: usdt, clientId: `j12b-${tag}-${Date.now()}` }, s);
  return s;
}

async function get<T>(request: APIRequestContext, url: string, s?: Session): Promise<T> {
  const res = await request.get(`/api/${url}`, s ? { headers: { token: s.token, userId: s.userId } } : {});
  const body = (await res.json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${url}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}

const market = (request: APIRequestContext) => get<Market>(request, `contract/market/getMarket?symbol=${encodeURIComponent(SYMBOL)}`);

/** `mark` x (1e4 + bps) / 1e4 on the tick, as a decimal string. */
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
        const diff = got > want ? got - want : want - got;
        return diff * 500n <= want;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(true);
}

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

async function orders(request: APIRequestContext, s: Session): Promise<Order[]> {
  return (await get<{ records: Order[] }>(request, `contract/contract/getOrders?tab=history&symbol=${encodeURIComponent(SYMBOL)}&pageSize=50`, s)).records;
}

test('contract triggers: the mark price fires a take profit with its PnL, and a 75x isolated long is liquidated', async ({ page, request }) => {
  test.setTimeout(300_000);
  const a = await trader(request, 'j12bt', '1000');
  const b = await trader(request, 'j12bl', '1000');
  const m0 = await market(request);
  expect(m0.markPrice, 'the contract has a mark price').not.toBe('');
  const start = m0.markPrice;
  await pin(request, start);
  await markNear(request, start);
  const m = await market(request);

  try {
    // A: 10x long of 2 lots with TP +2% and SL -3%; B: 75x isolated long of 1 lot.
    await apiPost(request, 'contract/contract/setLeverage', { symbol: SYMBOL, leverage: '10' }, a);
    const tp = shifted(m, 200n);
    const open = await apiPost<Order>(
      request,
      'contract/contract/placeOrder',
      { symbol: SYMBOL, side: 'BUY', orderType: 'MARKET', lots: '2', takeProfit: tp, stopLoss: shifted(m, -300n) },
      a,
    );
    expect(open.status).toBe('FILLED');
    await apiPost(request, 'contract/contract/setMarginMode', { symbol: SYMBOL, marginMode: 'ISOLATED' }, b);
    await apiPost(request, 'contract/contract/setLeverage', { symbol: SYMBOL, leverage: '75' }, b);
    const risky = await apiPost<Order>(request, 'contract/contract/placeOrder', { symbol: SYMBOL, side: 'BUY', orderType: 'MARKET', lots: '1' }, b);
    expect(risky.status).toBe('FILLED');

    // A sees the position with its TP/SL on the contract screen.
    await openAs(page, a, '/contract');
    const card = page.getByTestId('position');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(grouped(tp));

    // -2.5%: B's 75x isolated long (margin 1.33%) is liquidated; A's 10x long loses 25% of its margin and stays.
    const down = shifted(m, -250n);
    await pin(request, down);
    await markNear(request, down);
    await expect.poll(async () => (await get<unknown[]>(request, 'contract/contract/getPositions', b)).length, { timeout: 30_000 }).toBe(0);
    expect((await get<unknown[]>(request, 'contract/contract/getPositions', a)).length).toBe(1);
    const forced = (await orders(request, b)).find((o) => o.tradeType === 'FORCE_CLOSE');
    expect(forced, 'B has a force close order').toBeDefined();
    expect(forced!.trigger).toBe('LIQUIDATION');
    const liq = await get<{ records: { marginMode: string }[] }>(request, 'contract/contract/getLiquidations', b);
    expect(liq.records[0]?.marginMode).toBe('ISOLATED');

    // +1.5%, until the contract book's bids follow (the bots requote around the index), then +3%: A's take profit
    // (+2%) fires on the mark price and its MARKET close sells into bids above the entry.
    const half = shifted(m, 150n);
    await pin(request, half);
    await markNear(request, half);
    const bidFloor = rescale(parseDec(shifted(m, 100n)), m.priceDecimals, 'down').units;
    await expect
      .poll(
        async () => {
          const d = await get<{ bids: [string, string][] }>(request, `contract/market/getDepth?symbol=${encodeURIComponent(SYMBOL)}`);
          const best = d.bids[0]?.[0];
          return best !== undefined && rescale(parseDec(best), m.priceDecimals, 'down').units >= bidFloor;
        },
        { timeout: 60_000, intervals: [500] },
      )
      .toBe(true);
    const up = shifted(m, 300n);
    await pin(request, up);
    await expect.poll(async () => (await get<unknown[]>(request, 'contract/contract/getPositions', a)).length, { timeout: 60_000 }).toBe(0);
    await expect(card).toHaveCount(0);
    const history = await orders(request, a);
    const close = history.find((o) => o.tradeType === 'NORMAL_CLOSE');
    expect(close, 'the take profit close').toBeDefined();
    expect(close!.trigger).toBe('TAKE_PROFIT');
    const opened = history.find((o) => o.orderId === open.orderId)!;
    expect(close!.filledQty).toBe(opened.filledQty);
    // Realized PnL of a long closed whole = closing value - opening value (both exact decimals).
    const pnl = rescale(parseDec(close!.filledValue), 8, 'down').units - rescale(parseDec(opened.filledValue), 8, 'down').units;
    expect(rescale(parseDec(close!.realizedPnl), 8, 'down').units).toBe(pnl);
    expect(pnl > 0n, 'closed above the entry').toBe(true);

    // The users' order lists (zh): A's normal close with its PnL, B's force close.
    await page.goto('/contract/allContract');
    await page.getByRole('tab', { name: '已成交' }).click();
    const rows = page.getByTestId('contract-order');
    await expect(rows.filter({ hasText: '普通平仓' })).toHaveCount(1);
    const pb = await page.context().newPage();
    await openAs(pb, b, '/contract/allContract');
    await pb.getByRole('tab', { name: '已成交' }).click();
    await expect(pb.getByTestId('contract-order').filter({ hasText: '强制平仓' })).toHaveCount(1);
    await pb.close();
  } finally {
    await pin(request, start);
  }
});
