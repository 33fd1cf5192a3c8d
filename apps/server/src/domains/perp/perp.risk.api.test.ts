/**
 * Regression tests of the perpetuals' risk rules through the API, as an adversarial user tried them: nothing a user
 * may move out of the contract account (a transfer, margin released by a leverage change) may leave a loss uncovered
 * for the insurance fund, and the fund's liquidation order never sells below the bankruptcy price into a colluder's
 * bid. Test market TSTP/USDT (contract-test-support.ts): 1.000 TSTP at 50,000 is a 50,000 USDT position. The book is
 * kept one-sided or empty, so the mark price follows the index ticks exactly (the basis has no sample, and the median
 * of index, index and the last trade is the index).
 *
 * Rules (docs/perpetuals.md "Orders and margin", "Leverage", "Liquidation"): Binance's max withdraw amount (wallet less
 * initial margin and order holds, plus the cross unrealized loss); an isolated leverage increase releases at most what
 * margin removal at the new leverage allows; a decrease holds the extra margin or is refused; the liquidation order
 * is limited at the bankruptcy price and the rest is auto-deleveraged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal } from '@exchange/core';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { apiCaller, apiOk, loginUser, type TestUser } from '../spot/spot-test-support';
import { PERP, U, ensurePerpMarket, fundContract, tick } from './perp-test-support';

const SYM = PERP.symbol;
const C = 'contract/contract';
const px = (whole: number) => BigInt(whole) * 100n;
const usdt = (v: bigint) => formatDecimal(v, 8);

let t: TestApp;
let setup: DurableTestSetup | undefined;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);
let n = 0;

const ok = apiOk(call);
async function fails(user: string, method: 'GET' | 'POST', p: string, data: Record<string, string>, code: string) {
  const en = await call(user, method, p, { ...data, ...(data.clientId ? { clientId: `${data.clientId}-en` } : {}) }, 'en');
  const zh = await call(user, method, p, { ...data, ...(data.clientId ? { clientId: `${data.clientId}-zh` } : {}) }, 'zh');
  expect(en.body.status, JSON.stringify(en.body)).toBe('FAILED');
  expect(en.status).toBe(400);
  expect(en.body.errorCode).toBe(code);
  expect(zh.body.errorCode).toBe(code);
  return { en: en.body.errorMessage as string, zh: zh.body.errorMessage as string };
}
const transferOut = (amount: string) => ({ coin: 'USDT', from: 'CONTRACT', to: 'SPOT', amount, clientId: `risk-${++n}` });
const fund = () => t.ctx.host.engine.balance('@insurance', 'SYSTEM', 'USDT').available;
const wallet = (user: string) => {
  const b = t.ctx.host.engine.balance(users[user]!.userId, 'CONTRACT', 'USDT');
  return b.available + b.frozen;
};

beforeAll(async () => {
  setup = await durableTestSetup('exch-contract-risk-');
  t = await setup.open();
  await ensurePerpMarket(t.ctx.host);
  for (const u of ['mm', 'dave', 'erin', 'frank', 'gina', 'hank', 'ivan', 'kim']) users[u] = await loginUser(t, `${u}@risk.test`);
  await fundContract(t.ctx.host, users.mm!.userId, 100_000n);
  await fundContract(t.ctx.host, users.dave!.userId, 10_000n);
  await fundContract(t.ctx.host, users.erin!.userId, 6_000n);
  await fundContract(t.ctx.host, users.frank!.userId, 520n);
  await fundContract(t.ctx.host, users.gina!.userId, 3_000n);
  await fundContract(t.ctx.host, users.hank!.userId, 1_000n);
  await fundContract(t.ctx.host, users.ivan!.userId, 40_000n);
  expect((await t.ctx.host.submit({ type: 'fundInsurance', asset: 'USDT', amount: 10_000n * U, from: '@faucet' })).code).toBe('ok');
  expect(await tick(t.ctx.host, px(50_000))).toBe(px(50_000));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

/** `user` opens a long of `qty` (TSTP, "1.000") at 50,000 against the market maker's resting sell. */
async function openLong(user: string, qty: string) {
  await ok('mm', 'POST', `${C}/placeOrder`, { symbol: SYM, side: 'SELL', orderType: 'LIMIT', price: '50000', quantity: qty });
  const o = await ok(user, 'POST', `${C}/placeOrder`, { symbol: SYM, side: 'BUY', orderType: 'MARKET', quantity: qty });
  expect(o).toMatchObject({ status: 'FILLED', avgPrice: '50000.00' });
}

describe('contract risk rules through the API', () => {
  it('a transfer out of the contract account counts the cross unrealized loss (max withdraw amount)', async () => {
    await ok('dave', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '125' });
    await openLong('dave', '1.000'); // 50,000 notional at 125x: margin 400, taker fee 25
    expect(t.ctx.host.engine.balance(users.dave!.userId, 'CONTRACT', 'USDT')).toEqual({ available: 9_575n * U, frozen: 400n * U });
    expect(await tick(t.ctx.host, px(49_000))).toBe(px(49_000)); // 2% lower: unrealized -1,000
    const acc = await ok('dave', 'GET', `${C}/getAccount`);
    expect(acc).toMatchObject({
      available: usdt(9_575n * U),
      unrealizedPnl: usdt(-1_000n * U),
      availableBalance: usdt(8_575n * U),
      maxWithdrawAmount: usdt(8_575n * U),
    });
    // The ledger's available 9,575 would leave the position 600 short of its loss: refused, saying the maximum.
    const m = await fails('dave', 'POST', 'asset/wallet/transfer', transferOut('9575'), 'transfer_exceeds_withdrawable');
    expect(m.en).toBe('At most 8575.00000000 USDT can be transferred while positions are open: margin and unrealized losses stay in the contract account');
    expect(m.zh).toBe('持仓期间最多可划转 8575.00000000 USDT：保证金和未实现亏损需留在合约账户');
    await fails('dave', 'POST', 'asset/wallet/transfer', transferOut('8575.00000001'), 'transfer_exceeds_withdrawable');
    expect(wallet('dave')).toBe(9_975n * U);
    const done = await ok('dave', 'POST', 'asset/wallet/transfer', transferOut('8575'));
    expect(done).toMatchObject({ from: 'CONTRACT', to: 'SPOT' });
    expect((await ok('dave', 'GET', `${C}/getAccount`)).maxWithdrawAmount).toBe(usdt(0n));
    // The next tick at the same price does not liquidate: margin balance 1,400 - 1,000 = 400 against 196 maintenance.
    const before = fund();
    await tick(t.ctx.host, px(49_000));
    expect(t.ctx.host.engine.position(users.dave!.userId, SYM)?.size).toBe(1_000n);
    expect(fund()).toBe(before);
  });

  it('raising the leverage of a losing isolated position frees no more than margin removal allows', async () => {
    await tick(t.ctx.host, px(50_000));
    await ok('erin', 'POST', `${C}/setMarginMode`, { symbol: SYM, marginMode: 'ISOLATED' });
    await ok('erin', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '10' });
    await openLong('erin', '1.000'); // margin 5,000, fee 25, available 975
    await tick(t.ctx.host, px(48_000)); // unrealized -2,000
    const pos = (await ok('erin', 'GET', `${C}/getPositions`, { symbol: SYM }))[0];
    expect(pos).toMatchObject({ margin: usdt(5_000n * U), unrealizedPnl: usdt(-2_000n * U), maxRemovableMargin: usdt(0n) });
    await fails('erin', 'POST', `${C}/adjustMargin`, { symbol: SYM, amount: '-1' }, 'margin_remove_exceeded');
    // At 125x the margin must keep 48,000 / 125 = 384 after the loss: 5,000 - 2,000 - 384 = 2,616 may go, not 4,600.
    const preview = await ok('erin', 'GET', `${C}/leveragePreview`, { symbol: SYM, leverage: '125' });
    expect(preview).toEqual({
      symbol: SYM,
      leverage: 125,
      hasPosition: true,
      marginMode: 'ISOLATED',
      margin: usdt(5_000n * U),
      marginAfter: usdt(2_384n * U),
      marginChange: usdt(-2_616n * U),
      maxWithdrawAmount: usdt(975n * U),
      allowed: true,
      code: '',
      message: '',
    });
    // The preview reads the caller's own position only: kim (no position, no funds) sees none of erin's; a visitor
    // gets the login error and no numbers.
    expect(await ok('kim', 'GET', `${C}/leveragePreview`, { symbol: SYM, leverage: '125' })).toMatchObject({
      hasPosition: false,
      margin: usdt(0n),
      marginAfter: usdt(0n),
      maxWithdrawAmount: usdt(0n),
    });
    const visitor = await call(null, 'GET', `${C}/leveragePreview`, { symbol: SYM, leverage: '125' });
    expect(visitor.body.status).toBe('FAILED');
    expect(JSON.stringify(visitor.body)).not.toContain('5000');
    await ok('erin', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '125' });
    expect(t.ctx.host.engine.position(users.erin!.userId, SYM)!.margin).toBe(2_384n * U);
    expect((await ok('erin', 'GET', `${C}/getAccount`)).maxWithdrawAmount).toBe(usdt(3_591n * U));
    await ok('erin', 'POST', 'asset/wallet/transfer', transferOut('3591'));
    // What is left still carries the loss: not liquidated at 48,000 (384 against 192 maintenance).
    await tick(t.ctx.host, px(48_000));
    expect(t.ctx.host.engine.position(users.erin!.userId, SYM)?.size).toBe(1_000n);
  });

  it("the fund's liquidation order never sells below the bankruptcy price into a colluder's bid", async () => {
    // A colluder's bid 17% below the mark, inside the 50% band, where the liquidation would land.
    await ok('gina', 'POST', `${C}/placeOrder`, { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '40000', quantity: '1.000' });
    const before = fund();
    const ginaBefore = wallet('gina');
    await tick(t.ctx.host, px(47_700)); // erin: 2,384 - 2,300 = 84 below 190.80 maintenance
    expect(t.ctx.host.engine.position(users.erin!.userId, SYM)).toBeUndefined();
    // Bankruptcy price (50,000 - 2,384) / 1 = 47,616: the fund does not sell at 40,000 (a loss of 7,616); the
    // position is auto-deleveraged against the short (the market maker) at 47,616; the fund pays nothing.
    expect(fund()).toBe(before);
    expect(t.ctx.host.engine.position(users.gina!.userId, SYM)).toBeUndefined();
    expect(wallet('gina')).toBe(ginaBefore);
    const liq = await ok('erin', 'GET', `${C}/getLiquidations`, {});
    expect(liq.records[0]).toMatchObject({ symbol: SYM, marginMode: 'ISOLATED', side: 'LONG', quantity: '1.000' });
    expect(wallet('erin')).toBe(6_000n * U - 25n * U - 3_591n * U - 2_384n * U);
  });

  it("a close into a colluder's bid beyond what the position can pay is not executed", async () => {
    await tick(t.ctx.host, px(50_000));
    await ok('hank', 'POST', `${C}/setMarginMode`, { symbol: SYM, marginMode: 'ISOLATED' });
    await ok('hank', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '125' });
    await openLong('hank', '1.000'); // margin 400, fee 25
    await ok('hank', 'POST', 'asset/wallet/transfer', transferOut('575'));
    await ok('ivan', 'POST', `${C}/placeOrder`, { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '30000', quantity: '1.000' });
    const before = fund();
    const ivanBefore = wallet('ivan');
    // Selling at 30,000 would lose 20,000 against a margin of 400: the insurance fund would pay ivan 19,600.
    const o = await ok('hank', 'POST', `${C}/closePosition`, { symbol: SYM });
    expect(o).toMatchObject({ status: 'EXPIRED', filledQty: '0.000' });
    expect(fund()).toBe(before);
    expect(wallet('ivan')).toBe(ivanBefore);
    expect((await ok('hank', 'GET', `${C}/getPositions`, { symbol: SYM }))[0]).toMatchObject({ quantity: '1.000', margin: usdt(400n * U) });
  });

  it('an order far above the mark holds its open loss', async () => {
    // 1.000 at 70,000 against a mark of 50,000 at 125x: margin 560, fee 35, open loss 20,000
    await ok('ivan', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '125' });
    const o = await ok('ivan', 'POST', `${C}/placeOrder`, { symbol: SYM, side: 'BUY', orderType: 'LIMIT', price: '70000', quantity: '0.100' });
    expect(o).toMatchObject({ status: 'NEW', hold: usdt(2_059n * U + 50_000_000n) });
    await ok('ivan', 'POST', `${C}/cancelOrder`, { orderId: o.orderId });
  });

  it('lowering the leverage holds the extra margin, or is refused saying how much it needs', async () => {
    await tick(t.ctx.host, px(50_000));
    await ok('frank', 'POST', `${C}/setMarginMode`, { symbol: SYM, marginMode: 'ISOLATED' });
    await ok('frank', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '10' });
    await openLong('frank', '0.100'); // 5,000 notional: margin 500, fee 2.5, available 17.5
    const preview = await ok('frank', 'GET', `${C}/leveragePreview`, { symbol: SYM, leverage: '5' });
    expect(preview).toMatchObject({
      margin: usdt(500n * U),
      marginAfter: usdt(1_000n * U),
      marginChange: usdt(500n * U),
      allowed: false,
      code: 'leverage_margin_insufficient',
    });
    expect(preview.message).toBe('Lowering the leverage to 5x holds 500.00000000 USDT more margin, but only 17.50000000 USDT is available');
    const m = await fails('frank', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '5' }, 'leverage_margin_insufficient');
    expect(m.zh).toBe('将杠杆降至 5x 需追加 500.00000000 USDT 保证金，可用仅 17.50000000 USDT');
    expect(t.ctx.host.engine.position(users.frank!.userId, SYM)).toMatchObject({ margin: 500n * U, leverage: 10 });
    // With 500 more in the account the same change is accepted and holds it.
    await fundContract(t.ctx.host, users.frank!.userId, 500n);
    await ok('frank', 'POST', `${C}/setLeverage`, { symbol: SYM, leverage: '5' });
    expect(t.ctx.host.engine.position(users.frank!.userId, SYM)).toMatchObject({ margin: 1_000n * U, leverage: 5 });
  });
});
