/**
 * API test of the in-app inbox (/message) through app.inject() on PGlite files (PostgreSQL when DATABASE_URL is set), the real engine and journal.
 * Alice gets a chain deposit credited, a spot buy filled in two pieces by Bob's two sells (one aggregated message with
 * the cumulative figures), a KYC approval by the console, and a log-in from a new device; Bob gets one message per
 * sell order. Checked: the list (newest first, by category, display figures exact), unread counts, mark one and mark
 * all, a fill after reading marks the aggregated message unread again; Bob can neither see nor mark Alice's messages
 * (not found, zh and en), a logged-out caller is refused; a new message is pushed on the user's private WebSocket
 * channel (after it is written) and on no other user's; finally the database is deleted and rebuilt from the
 * journal: the engine-derived messages come back the same (unread), the security message is gone with the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableTestSetup, type DurableTestSetup, type TestApp } from '../../../test/helpers';
import { ensureMarket } from '../../platform/engine-host/test-fixtures';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { toUnits } from '../../platform/shared/decimal';
import { Client } from '../../gateways/ws/ws-test-support';

let t: TestApp;
let setup: DurableTestSetup | undefined;
let alice: TestUser;
let bob: TestUser;
const TX = `0x${'ab'.repeat(32)}`;
const ADDR = `0x${'12'.repeat(20)}`;

type Who = TestUser | null;
async function call(who: Who, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}, lang = 'en', extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { lang, ...(who ? who.headers : {}), ...extra };
  const res =
    method === 'GET'
      ? await t.app.inject({ method, url: `/api/member/message/${p}?${new URLSearchParams(data).toString()}`, headers })
      : await t.app.inject({
          method,
          url: `/api/member/message/${p}`,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(data).toString(),
        });
  return { status: res.statusCode, body: res.json() };
}
async function ok(who: Who, method: 'GET' | 'POST', p: string, data: Record<string, string> = {}) {
  const r = await call(who, method, p, data);
  expect(r.body.status, JSON.stringify(r.body)).toBe('SUCCEED');
  return r.body.result;
}
type Msg = { id: string; kind: string; category: string; params: Record<string, string>; ts: number; read: boolean };
const list = async (who: TestUser, q: Record<string, string> = {}): Promise<Msg[]> => (await ok(who, 'GET', 'list', q)).records;

async function order(userId: string, side: 'BUY' | 'SELL', price: string, qty: string) {
  const m = t.ctx.host.engine.market('BTC/USDT')!;
  const r = await t.ctx.host.submit({
    type: 'placeOrder',
    userId,
    symbol: 'BTC/USDT',
    side,
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price: toUnits(price, m.priceDecimals),
    quantity: toUnits(qty, m.qtyDecimals),
  });
  expect(r.code).toBe('ok');
  return r.order!.orderId;
}

beforeAll(async () => {
  setup = await durableTestSetup('exch-inbox-');
  t = await setup.open();
  await ensureMarket(t.ctx.host);
  alice = await loginUser(t, 'alice@inbox.test');
  bob = await loginUser(t, 'bob@inbox.test');
  const U = 100_000_000n;
  expect((await t.ctx.host.submit({ type: 'deposit', userId: alice.userId, asset: 'USDT', account: 'SPOT', amount: 100_000n * U, from: '@faucet' })).code).toBe(
    'ok',
  );
  expect((await t.ctx.host.submit({ type: 'deposit', userId: bob.userId, asset: 'BTC', account: 'SPOT', amount: 2n * U, from: '@faucet' })).code).toBe('ok');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await setup?.dispose();
});

describe('inbox', () => {
  let buyId = '';
  it('derives messages from the engine: a deposit, an aggregated fill, a KYC decision; newest first', async () => {
    const r = await t.ctx.host.submit({
      type: 'creditDeposit',
      userId: alice.userId,
      asset: 'USDT',
      amount: 150_000_000n,
      chain: 'ETH',
      txHash: TX,
      logIndex: 0,
      address: ADDR,
      blockNumber: 7,
    });
    expect(r.code).toBe('ok');
    buyId = await order(alice.userId, 'BUY', '30000', '1');
    await order(bob.userId, 'SELL', '30000', '0.4');
    await order(bob.userId, 'SELL', '30000', '0.6');
    await t.ctx.host.submit({
      type: 'updateUser',
      userId: alice.userId,
      profile: { cardState: 'PASS' },
      audit: { operatorId: '1', action: 'kyc_approve', after: JSON.stringify({ level: 'BASIC', state: 'PASS' }) },
    });

    const msgs = await list(alice);
    expect(msgs.map((m) => m.kind)).toEqual(['KYC_APPROVED', 'SPOT_FILLED', 'DEPOSIT_CREDITED']);
    const fill = msgs[1]!;
    expect(fill.category).toBe('TRADE');
    expect(fill.params).toMatchObject({ orderId: buyId, pairsName: 'BTC/USDT', side: 'BUY', status: 'FILLED', baseCoin: 'BTC', quoteCoin: 'USDT' });
    const m = t.ctx.host.engine.market('BTC/USDT')!;
    expect(fill.params.filledQty).toBe((1).toFixed(m.qtyDecimals));
    expect(fill.params.avgPrice).toBe((30000).toFixed(m.priceDecimals));
    expect(fill.params.filledQuote).toBe('30000.00000000');
    expect(msgs[2]!.params).toMatchObject({ coin: 'USDT', amount: '1.50000000', chain: 'ETH' });
    expect(msgs[0]!.params).toEqual({ level: 'BASIC' });
    expect(msgs.every((x) => !x.read)).toBe(true);
    // Bob: one message per sell order.
    const bobs = await list(bob);
    expect(bobs.map((x) => [x.kind, x.params.filledQty, x.params.status])).toEqual([
      ['SPOT_FILLED', (0.6).toFixed(m.qtyDecimals), 'FILLED'],
      ['SPOT_FILLED', (0.4).toFixed(m.qtyDecimals), 'FILLED'],
    ]);
    // By category.
    expect((await list(alice, { category: 'ASSET' })).map((x) => x.kind)).toEqual(['DEPOSIT_CREDITED']);
    expect((await list(alice, { category: 'OTC' })).length).toBe(0);
    const page = await ok(alice, 'GET', 'list', { page: '2', pageSize: '2' });
    expect([page.total, page.records.length, page.records[0].kind]).toEqual([3, 1, 'DEPOSIT_CREDITED']);
  });

  it('a log-in from a new device makes a security message; the same device again does not', async () => {
    const login = (ua: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/member/member/login',
        headers: { 'user-agent': ua },
        payload: { account: 'alice@inbox.test', password: 'secret-pass-1' },
      });
    expect((await login('lightMyRequest')).json().status).toBe('SUCCEED');
    expect((await login('Mozilla/5.0 (iPhone) NewPhone')).json().status).toBe('SUCCEED');
    expect((await login('Mozilla/5.0 (iPhone) NewPhone')).json().status).toBe('SUCCEED');
    const sec = await list(alice, { category: 'ACCOUNT' });
    expect(sec.map((x) => x.kind)).toEqual(['LOGIN_NEW_DEVICE', 'KYC_APPROVED']);
    expect(sec[0]!.params.device).toBe('Mozilla/5.0 (iPhone) NewPhone');
  });

  it('counts unread, marks one and all read; another user can neither see nor mark them', async () => {
    expect(await ok(alice, 'GET', 'unreadCount')).toEqual({ total: 4, byCategory: { TRADE: 1, ASSET: 1, OTC: 0, ACCOUNT: 2 } });
    const [first] = await list(alice);
    // Bob: not found in both languages, nothing changes.
    const en = await call(bob, 'POST', 'markRead', { id: first!.id }, 'en');
    const zh = await call(bob, 'POST', 'markRead', { id: first!.id }, 'zh');
    expect([en.status, en.body.errorCode, zh.body.errorCode]).toEqual([404, 'inbox_message_not_found', 'inbox_message_not_found']);
    expect([en.body.errorMessage, zh.body.errorMessage]).toEqual(['The message does not exist', '消息不存在']);
    expect((await ok(bob, 'POST', 'markAllRead')).marked).toBe(2);
    expect((await list(bob)).every((x) => x.read)).toBe(true);
    expect((await ok(alice, 'GET', 'unreadCount')).total).toBe(4);
    expect((await list(bob)).some((x) => x.id === first!.id)).toBe(false);
    // Logged out.
    const anon = await call(null, 'GET', 'unreadCount');
    expect(anon.body.status).toBe('FAILED');
    // Alice marks one (twice: the second marks nothing), then all of a category, then all.
    const one = await ok(alice, 'POST', 'markRead', { id: first!.id });
    expect([one.marked, one.unread.total]).toEqual([1, 3]);
    expect((await ok(alice, 'POST', 'markRead', { id: first!.id })).marked).toBe(0);
    const cat = await ok(alice, 'POST', 'markAllRead', { category: 'TRADE' });
    expect([cat.marked, cat.unread.byCategory.TRADE, cat.unread.total]).toEqual([1, 0, 2]);
    const all = await ok(alice, 'POST', 'markAllRead');
    expect([all.marked, all.unread.total]).toEqual([2, 0]);
    expect((await list(alice)).every((x) => x.read)).toBe(true);
    expect((await call(alice, 'POST', 'markRead', { id: '999999999' })).body.errorCode).toBe('inbox_message_not_found');
  });

  it('a new fill of a read order marks its message unread again, with the new figures; a replay changes nothing', async () => {
    const m = t.ctx.host.engine.market('BTC/USDT')!;
    const sellId = await order(alice.userId, 'SELL', '31000', '0.5');
    await order(bob.userId, 'BUY', '31000', '0.2');
    let msgs = await list(alice, { category: 'TRADE' });
    expect(msgs.map((x) => [x.params.orderId, x.params.filledQty, x.params.status, x.read])).toEqual([
      [sellId, (0.2).toFixed(m.qtyDecimals), 'PARTIALLY_FILLED', false],
      [buyId, (1).toFixed(m.qtyDecimals), 'FILLED', true],
    ]);
    await ok(alice, 'POST', 'markAllRead');
    await order(bob.userId, 'BUY', '31000', '0.3');
    msgs = await list(alice, { category: 'TRADE' });
    expect(msgs.map((x) => [x.params.filledQty, x.params.status, x.read])[0]).toEqual([(0.5).toFixed(m.qtyDecimals), 'FILLED', false]);
    expect(msgs.length).toBe(2);
  });

  it("pushes { channel: 'inbox' } on the user's private channel once the message is written, not to another user", async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address.replace('http', 'ws')}/ws/websocket`;
    const a = await Client.open(url);
    const b = await Client.open(url);
    try {
      a.send({ op: 'auth', ...alice.headers });
      b.send({ op: 'auth', ...bob.headers });
      await a.next((m) => m.channel === 'auth' && m.ok === true);
      await b.next((m) => m.channel === 'auth' && m.ok === true);
      await ok(alice, 'POST', 'markAllRead');
      const r = await t.ctx.host.submit({
        type: 'creditDeposit',
        userId: alice.userId,
        asset: 'USDT',
        amount: 200_000_000n,
        chain: 'ETH',
        txHash: `0x${'cd'.repeat(32)}`,
        logIndex: 1,
        address: ADDR,
        blockNumber: 8,
      });
      expect(r.code).toBe('ok');
      await a.next((m) => m.channel === 'inbox');
      // Written before the push: the count the app refetches has it.
      const unread = await t.ctx.inbox.unread(alice.userId);
      expect([unread.total, unread.byCategory.ASSET]).toEqual([1, 1]);
      await b.roundTrip();
      expect(b.messages.some((m) => m.channel === 'inbox')).toBe(false);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a database rebuilt from the journal has the same engine-derived messages (unread); the security message is gone', async () => {
    const before = (await list(alice, { pageSize: '100' })).filter((x) => x.kind !== 'LOGIN_NEW_DEVICE').map((x) => [x.kind, x.params, x.ts]);
    await t.close();
    await setup!.loseDatabase();
    t = await setup!.open();
    alice = await loginUser(t, 'alice@inbox.test');
    const after = await list(alice, { pageSize: '100' });
    expect(after.map((x) => [x.kind, x.params, x.ts])).toEqual(before);
    expect(after.every((x) => !x.read)).toBe(true);
  }, 120_000);
});
