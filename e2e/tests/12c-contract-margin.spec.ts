/**
 * Journey 12c (isolated margin): adding and removing margin of an isolated position in the app, at 390x844
 * in zh, on SOL/USDT (a market journeys 12 and 12b leave alone). A user with 500 USDT in the contract account opens a
 * 10x isolated long of 1 lot through the API; then, on the contract screen, the pencil beside the position's margin
 * opens the adjust-margin sheet:
 * - Add: the most that may be added is the account's available balance (getAccount); 50 USDT are added; the sheet's
 *   estimated liquidation price after the change is the one the server then answers (perp/math liquidationPrice over
 *   the new margin), and the card shows the new margin and that liquidation price, as getPositions does.
 * - Remove: the sheet's most removable is the server's maxRemovableMargin (perp/math, at the mark price); 20 USDT are
 *   removed, and the card and the API agree again; an amount beyond the maximum is refused under the field with
 *   the maximum in the message, and nothing is sent.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatDecimal, parseDecimal } from '@exchange/money';
import { apiPost, expectToast, freshEmail, grouped, recordToasts, registerByApi } from './support';

const SYMBOL = 'SOL/USDT';
const PASSWORD = 'Journey12cpass';

type Session = { token: string; userId: string };
interface Position {
  symbol: string;
  marginMode: string;
  margin: string;
  maxRemovableMargin: string;
  liquidationPrice: string;
  markPrice: string;
  priceDecimals: number;
}

async function get<T>(request: APIRequestContext, url: string, s?: Session): Promise<T> {
  const res = await request.get(`/api/${url}`, s ? { headers: { token: s.token, userId: s.userId } } : {});
  const body = (await res.json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${url}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}

const positionOf = async (request: APIRequestContext, s: Session) =>
  (await get<Position[]>(request, `contract/contract/getPositions?symbol=${encodeURIComponent(SYMBOL)}`, s))[0]!;

/** An amount of the API ("150.00000000") as the app shows a USDT amount: grouped, trailing zeros dropped to 2 decimals. */
function usdtText(v: string): string {
  const [i, f = ''] = v.split('.');
  const frac = f.replace(/0+$/, '').padEnd(2, '0');
  return `${grouped(i!)}.${frac}`;
}

/** An amount of USDT as the position card shows it (formatCoin: grouped, 2 decimals, rounded down). */
function cents(v: string): string {
  return grouped(formatDecimal(parseDecimal(v, 8) / 1_000_000n, 2));
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

test('contract margin: add and remove margin of an isolated position, with the liquidation price of the core', async ({ page, request }) => {
  test.setTimeout(180_000);
  await recordToasts(page);
  const s = await registerByApi(request, freshEmail('j12m'), PASSWORD);
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName: `j12m${Date.now() % 1_000_000}` }, s);
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: '500', clientId: `j12c-${Date.now()}` }, s);
  await apiPost(request, 'contract/contract/setMarginMode', { symbol: SYMBOL, marginMode: 'ISOLATED' }, s);
  await apiPost(request, 'contract/contract/setLeverage', { symbol: SYMBOL, leverage: '10' }, s);
  const open = await apiPost<{ status: string }>(request, 'contract/contract/placeOrder', { symbol: SYMBOL, side: 'BUY', orderType: 'MARKET', lots: '1' }, s);
  expect(open.status).toBe('FILLED');
  const p0 = await positionOf(request, s);
  expect(p0.marginMode).toBe('ISOLATED');

  await openAs(page, s, '/contract');
  const card = page.getByTestId('position');
  await expect(card).toHaveCount(1, { timeout: 30_000 });
  await expect(card.getByTestId('margin')).toHaveText(cents(p0.margin));
  await expect(card.getByTestId('liq-price')).toHaveText(grouped(p0.liquidationPrice));

  // Add 50: the most addable is the available balance; the estimate after is what the server answers.
  const available = (await get<{ available: string }>(request, 'contract/contract/getAccount', s)).available;
  await card.getByRole('button', { name: '调整保证金' }).click();
  const sheet = page.getByRole('dialog', { name: `调整保证金 ${SYMBOL}` });
  await expect(sheet.getByRole('tab', { name: '增加保证金' })).toHaveAttribute('aria-selected', 'true');
  await expect(sheet.getByTestId('margin-max')).toHaveText(`${usdtText(available)} USDT`);
  await expect(sheet.getByTestId('margin-now')).toHaveText(`${usdtText(p0.margin)} USDT`);
  await sheet.getByLabel('金额', { exact: true }).fill('50');
  const estAfterAdd = await sheet.getByTestId('liq-after').textContent();
  await sheet.getByRole('button', { name: '确认' }).click();
  await expectToast(page, '保证金已增加');
  const p1 = await positionOf(request, s);
  expect(parseDecimal(p1.margin, 8)).toBe(parseDecimal(p0.margin, 8) + 50n * 100_000_000n);
  expect(grouped(p1.liquidationPrice)).toBe(estAfterAdd);
  expect(p1.liquidationPrice).not.toBe(p0.liquidationPrice);
  await expect(card.getByTestId('margin')).toHaveText(cents(p1.margin));
  await expect(card.getByTestId('liq-price')).toHaveText(grouped(p1.liquidationPrice));

  // Remove: the most removable is the server's maxRemovableMargin at the mark price (retried while the mark moves).
  await card.getByRole('button', { name: '调整保证金' }).click();
  await sheet.getByRole('tab', { name: '减少保证金' }).click();
  await expect
    .poll(
      async () => {
        const shown = await sheet.getByTestId('margin-max').textContent();
        const api = await positionOf(request, s);
        return shown === `${usdtText(api.maxRemovableMargin)} USDT`;
      },
      { timeout: 30_000, intervals: [300] },
    )
    .toBe(true);
  await sheet.getByLabel('金额', { exact: true }).fill('20');
  await expect(sheet.getByTestId('margin-after')).toHaveText(`${usdtText(formatDecimal(parseDecimal(p1.margin, 8) - 20n * 100_000_000n, 8))} USDT`);
  const estAfterRemove = await sheet.getByTestId('liq-after').textContent();
  await sheet.getByRole('button', { name: '确认' }).click();
  await expectToast(page, '保证金已减少');
  const p2 = await positionOf(request, s);
  expect(parseDecimal(p2.margin, 8)).toBe(parseDecimal(p1.margin, 8) - 20n * 100_000_000n);
  expect(grouped(p2.liquidationPrice)).toBe(estAfterRemove);
  await expect(card.getByTestId('margin')).toHaveText(cents(p2.margin));
  await expect(card.getByTestId('liq-price')).toHaveText(grouped(p2.liquidationPrice));

  // Too much: refused under the field with the maximum, nothing sent (the margin stays).
  await card.getByRole('button', { name: '调整保证金' }).click();
  await sheet.getByRole('tab', { name: '减少保证金' }).click();
  await sheet.getByLabel('金额', { exact: true }).fill('400');
  await sheet.getByRole('button', { name: '确认' }).click();
  await expect(sheet.getByRole('alert')).toHaveText(/^最多可减少 [\d,]+\.\d+ USDT$/);
  // Both follow the mark price: the error names the maximum shown beside the field at the same moment.
  await expect
    .poll(
      async () => {
        const maxShown = (await sheet.getByTestId('margin-max').textContent())!;
        const error = await sheet.getByRole('alert').textContent();
        return error === `最多可减少 ${maxShown}`;
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe(true);
  expect((await positionOf(request, s)).margin).toBe(p2.margin);
  await sheet.getByRole('button', { name: '取消' }).click();
  await expect(sheet).toHaveCount(0);
});
