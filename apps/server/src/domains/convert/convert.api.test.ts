/**
 * API test of convert's minimum through app.inject() on a real database and engine: a quote applies every filter the
 * market order it stands for will meet, so what is quoted is converted. BTC/USDT (minimum order value 5 USDT, steps
 * of 0.00001 BTC, taker fee 0.1 %) holds a maker's ask of 0.1 BTC at 50,000 and bid of 1 BTC at 49,900. Checked
 * with exact figures:
 * - getPairs names the minimum of both directions: 5 USDT, and 0.00011 BTC (the least whole steps whose sale into
 *   the bid reaches 5 USDT: 11 x 0.499 = 5.489);
 * - 1.23456789 USDT -> BTC (once quoted, then refused on confirm) is refused at the quote with
 *   convert_below_minimum, "The minimum to convert is 5 USDT" / "最小兑换数量为 5 USDT", no quote stored and nothing
 *   changed; 5 USDT is quoted (0.0000999 BTC after the 0.00000010 fee) and converts to exactly that;
 * - 0.0001 BTC -> USDT is refused naming 0.00011 BTC; 0.00011 BTC is quoted (5.489 USDT less 0.005489) and converts;
 * - an amount off the step and a frozen account are refused at the quote as the order would be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal } from '@exchange/core';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { convertQuotes } from './convert.tables';
import { apiCaller, apiOk, loginUser, type TestUser } from '../spot/spot-test-support';

const U = 100_000_000n; // 1 USDT (or 1 BTC) in asset units
const SYM = 'BTC/USDT';

let t: TestApp;
const users: Record<string, TestUser> = {};
const call = apiCaller(() => t, users);

const ok = apiOk(call);
/** Asks in en and zh; expects the code in both and answers both messages. */
async function refused(user: string, path: string, data: Record<string, string>, code: string) {
  const en = await call(user, 'POST', path, data, 'en');
  const zh = await call(user, 'POST', path, data, 'zh');
  expect(en.body, JSON.stringify(en.body)).toMatchObject({ status: 'FAILED', errorCode: code });
  expect(zh.body).toMatchObject({ status: 'FAILED', errorCode: code });
  expect(en.status).toBe(400);
  return { en: en.body.errorMessage as string, zh: zh.body.errorMessage as string };
}
/** The user's SPOT available of `coin`, asset units (demo sign-up credits come on top of the test's deposits). */
const spot = (user: string, coin: string) => t.ctx.host.engine.balance(users[user]!.userId, 'SPOT', coin).available;
const quoteCount = async () => (await t.ctx.db.select().from(convertQuotes)).length;

beforeAll(async () => {
  t = await makeTestApp();
  users.a = await loginUser(t, 'a@convert-min.test');
  users.mm = await loginUser(t, 'mm@convert-min.test');
  const deposit = async (user: string, asset: string, amount: bigint) =>
    expect((await t.ctx.host.submit({ type: 'deposit', userId: users[user]!.userId, asset, account: 'SPOT', amount, from: '@faucet' })).code).toBe('ok');
  await deposit('a', 'USDT', 100n * U);
  await deposit('a', 'BTC', U / 100n);
  await deposit('mm', 'USDT', 100_000n * U);
  await deposit('mm', 'BTC', 10n * U);
  // 0.1 BTC asked at 50,000; 1 BTC bid at 49,900 (price units of 0.01, qty units of 0.00001 BTC).
  for (const [side, price, quantity] of [
    ['SELL', 5_000_000n, 10_000n],
    ['BUY', 4_990_000n, 100_000n],
  ] as const) {
    const r = await t.ctx.host.submit({
      type: 'placeOrder',
      userId: users.mm!.userId,
      symbol: SYM,
      side,
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price,
      quantity,
    });
    expect(r.code).toBe('ok');
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('convert minimum', () => {
  it('names the minimum of both directions in the pairs', async () => {
    const pairs = await ok(null, 'GET', 'exchange/convert/getPairs');
    expect(pairs.pairs.find((p: { symbol: string }) => p.symbol === SYM)).toEqual({
      symbol: SYM,
      base: 'BTC',
      quote: 'USDT',
      feeRate: '0.10',
      baseStep: '0.00001',
      minQuote: '5.00000000',
      minBase: '0.00011000',
    });
    // No bids in ETH/USDT: nothing can be sold, so no base minimum; ETH/BTC's minimum order value is 0.0001 BTC.
    expect(pairs.pairs.find((p: { symbol: string }) => p.symbol === 'ETH/USDT')).toMatchObject({ minQuote: '5.00000000', minBase: '' });
    expect(pairs.pairs.find((p: { symbol: string }) => p.symbol === 'ETH/BTC')).toMatchObject({ minQuote: '0.00010000', minBase: '' });
  });

  it('refuses 1.23456789 USDT -> BTC at the quote naming 5 USDT, then quotes and converts 5 USDT', async () => {
    const hash = t.ctx.host.engine.stateHash();
    const quotes = await quoteCount();
    const small = await refused('a', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '1.23456789' }, 'convert_below_minimum');
    expect(small).toEqual({ en: 'The minimum to convert is 5 USDT', zh: '最小兑换数量为 5 USDT' });
    expect((await refused('a', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '4.99999999' }, 'convert_below_minimum')).en).toBe(
      'The minimum to convert is 5 USDT',
    );
    expect(await quoteCount()).toBe(quotes);
    expect(t.ctx.host.engine.stateHash()).toBe(hash);

    const [usdt0, btc0] = [spot('a', 'USDT'), spot('a', 'BTC')];
    const q = await ok('a', 'POST', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '5' });
    // 5 USDT buys 0.0001 BTC at 50,000; the fee 0.1 % of it is 0.0000001 BTC.
    expect(q).toMatchObject({
      from: 'USDT',
      to: 'BTC',
      symbol: SYM,
      amount: '5.00000000',
      spend: '5.00000000',
      receive: '0.00009990',
      fee: '0.00000010',
      feeRate: '0.10',
      price: '0.00002000',
    });
    const r = await ok('a', 'POST', 'exchange/convert/confirm', { quoteId: q.quoteId });
    expect(r).toMatchObject({ from: 'USDT', to: 'BTC', spent: '5.00000000', received: '0.00009990', fee: '0.00000010' });
    expect(formatDecimal(spot('a', 'USDT') - usdt0, 8)).toBe('-5.00000000');
    expect(formatDecimal(spot('a', 'BTC') - btc0, 8)).toBe('0.00009990');
  });

  it('refuses 0.0001 BTC -> USDT at the quote naming 0.00011 BTC, then quotes and converts 0.00011 BTC', async () => {
    const sell = await refused('a', 'exchange/convert/quote', { from: 'BTC', to: 'USDT', amount: '0.0001' }, 'convert_below_minimum');
    expect(sell).toEqual({ en: 'The minimum to convert is 0.00011 BTC', zh: '最小兑换数量为 0.00011 BTC' });
    const [usdt0, btc0] = [spot('a', 'USDT'), spot('a', 'BTC')];
    const q = await ok('a', 'POST', 'exchange/convert/quote', { from: 'BTC', to: 'USDT', amount: '0.00011' });
    // 0.00011 BTC sells for 5.489 USDT at 49,900; the fee 0.1 % of it is 0.005489 USDT.
    expect(q).toMatchObject({ from: 'BTC', to: 'USDT', amount: '0.00011000', spend: '0.00011000', receive: '5.48351100', fee: '0.00548900' });
    const r = await ok('a', 'POST', 'exchange/convert/confirm', { quoteId: q.quoteId });
    expect(r).toMatchObject({ spent: '0.00011000', received: '5.48351100', fee: '0.00548900' });
    expect(formatDecimal(spot('a', 'USDT') - usdt0, 8)).toBe('5.48351100');
    expect(formatDecimal(spot('a', 'BTC') - btc0, 8)).toBe('-0.00011000');
  });

  it('refuses an amount off the step and a frozen account at the quote, as the order would be', async () => {
    const step = await refused('a', 'exchange/convert/quote', { from: 'BTC', to: 'USDT', amount: '0.000111' }, 'quantity_not_on_step');
    expect(step.en).toBe('Amount must be a multiple of 0.00001 BTC');
    expect((await t.ctx.host.submit({ type: 'updateUser', userId: users.a!.userId, profile: { frozen: '1' } })).code).toBe('ok');
    const frozen = await refused('a', 'exchange/convert/quote', { from: 'USDT', to: 'BTC', amount: '10' }, 'account_frozen');
    expect(frozen.zh).not.toBe(frozen.en);
  });
});
