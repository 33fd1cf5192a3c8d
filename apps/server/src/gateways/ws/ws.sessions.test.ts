/**
 * Sessions end everywhere at once, over a real listening app on 127.0.0.1 and the `ws` client:
 * after a logout the socket of that session is told { channel: 'sessionEnded' } and receives nothing private while
 * orders are placed and filled for its user, whereas the user's other session and another user's socket keep theirs;
 * a password reset (forgetPassword) and MemberService.endAllSessions (the mechanism for password change, 2FA change
 * and account freeze) do the same for every socket of the user; a logout racing with a socket's auth never leaves
 * the socket bound. "Nothing private" is checked after a ping round trip, so every push the server made is in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { fakeReferencePaths } from '../../domains/market-data/fake-reference-paths';
import { get, post, sendAndReadCode } from '../../domains/member/member-test-app';
import { Client, loginNewUser, type Msg } from './ws-test-support';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await makeTestApp();
  await t.ctx.marketData.setReferencePaths(fakeReferencePaths(Date.now()));
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = address.replace(/^http/, 'ws') + '/ws/websocket?lang=en';
});
afterAll(async () => {
  await t?.close();
});

const isPrivate = (m: Msg) => m.channel === 'orders' || m.channel === 'balances';

/** Opens a socket and authenticates it with `s`. */
async function authedSocket(s: { token: string; userId: string }): Promise<Client> {
  const c = await Client.open(url);
  c.send({ op: 'auth', token: s.token, userId: s.userId });
  expect(await c.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });
  return c;
}

/** Places a resting BUY for `userId` (an order push and a balance push to its sockets). */
async function placeOrder(userId: string): Promise<void> {
  await t.ctx.spot.place(userId, { pairsName: 'ETH/USDT', side: 'BUY', orderType: 'LIMIT', price: '1500', amount: '0.01' });
}

/** The private messages `c` received after its `sessionEnded` message, once a ping round trip shows all are in. */
async function privateAfterEnd(c: Client): Promise<Msg[]> {
  await c.roundTrip();
  const end = c.messages.findIndex((m) => m.channel === 'sessionEnded');
  expect(end).toBeGreaterThanOrEqual(0);
  return c.messages.slice(end + 1).filter(isPrivate);
}

const headers = (s: { token: string; userId: string }) => ({ headers: { token: s.token, userId: s.userId } });

describe('logout', () => {
  it("unbinds the socket of that session at once; the user's other session and other users keep their pushes", async () => {
    const mail = `ws-logout-${Date.now()}@example.com`;
    const a1 = await loginNewUser(t, mail);
    const a2 = await loginNewUser(t, mail);
    const b = await loginNewUser(t, `ws-logout-b-${Date.now()}@example.com`);
    const [s1, s2, sb] = [await authedSocket(a1), await authedSocket(a2), await authedSocket(b)];

    const out = await post(t.app, 'member/member/logout', {}, headers(a1));
    expect(out.json().status).toBe('SUCCEED');
    expect(await s1.next((m) => m.channel === 'sessionEnded', 1000)).toEqual({
      channel: 'sessionEnded',
      reason: 'logout',
      errorCode: 'SYS.0015',
      errorMessage: 'Login expired, please log in again',
    });

    for (let i = 0; i < 3; i++) await placeOrder(a1.userId);
    await placeOrder(b.userId);
    expect(await privateAfterEnd(s1)).toEqual([]);
    await s2.roundTrip();
    expect(s2.messages.filter((m) => m.channel === 'orders').length).toBe(3);
    expect(s2.messages.some((m) => m.channel === 'sessionEnded')).toBe(false);
    await sb.roundTrip();
    expect(sb.messages.filter((m) => m.channel === 'orders').length).toBe(1);

    // The ended session cannot bind the socket again; the socket stays open for public data and a new login.
    s1.send({ op: 'auth', token: a1.token, userId: a1.userId });
    expect(await s1.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: false, errorCode: 'SYS.0015' });
    const a3 = await loginNewUser(t, mail);
    s1.send({ op: 'auth', token: a3.token, userId: a3.userId });
    expect(await s1.next((m) => m.channel === 'auth')).toEqual({ channel: 'auth', ok: true });
    await placeOrder(a1.userId);
    await s1.next((m) => m.channel === 'orders');
    for (const c of [s1, s2, sb]) c.close();
  });

  it('never leaves a socket bound when the logout races with its auth', async () => {
    const mail = `ws-race-${Date.now()}@example.com`;
    const sockets: Client[] = [];
    let userId = '';
    for (let i = 0; i < 10; i++) {
      const s = await loginNewUser(t, mail);
      userId = s.userId;
      // Warm the session cache on odd rounds, so both the cached and the database path race with the logout.
      if (i % 2 === 1) expect(await t.ctx.members.authenticate(s.token, s.userId)).toBe(s.userId);
      const c = await Client.open(url);
      c.send({ op: 'auth', token: s.token, userId: s.userId });
      await new Promise((r) => setTimeout(r, i % 3)); // vary the interleaving
      await t.ctx.members.logout(s.token);
      await c.next((m) => m.channel === 'auth');
      sockets.push(c);
    }
    await placeOrder(userId);
    for (const c of sockets) {
      await c.roundTrip();
      const ok = c.messages.findIndex((m) => m.channel === 'auth' && m.ok === true);
      const end = c.messages.findIndex((m) => m.channel === 'sessionEnded');
      // Either refused, or bound and then told the session ended; never a private push.
      if (ok >= 0) expect(end).toBeGreaterThan(ok);
      expect(c.messages.filter(isPrivate)).toEqual([]);
      c.close();
    }
  });
});

describe('every session of a user', () => {
  it('a password reset unbinds every socket of the user at once; another user keeps theirs', async () => {
    const mail = `ws-reset-${Date.now()}@example.com`;
    const a1 = await loginNewUser(t, mail);
    const a2 = await loginNewUser(t, mail);
    const b = await loginNewUser(t, `ws-reset-b-${Date.now()}@example.com`);
    const [s1, s2, sb] = [await authedSocket(a1), await authedSocket(a2), await authedSocket(b)];

    const code = await sendAndReadCode(t, mail, 'FORGET');
    const res = await post(t.app, 'member/member/forgetPassword', { account: mail, code, password: 'NewSecret9', confirmPassword: 'NewSecret9' });
    expect(res.json().status).toBe('SUCCEED');
    for (const c of [s1, s2])
      expect(await c.next((m) => m.channel === 'sessionEnded', 1000)).toMatchObject({ reason: 'password_reset', errorCode: 'SYS.0015' });

    for (let i = 0; i < 3; i++) await placeOrder(a1.userId);
    await placeOrder(b.userId);
    expect(await privateAfterEnd(s1)).toEqual([]);
    expect(await privateAfterEnd(s2)).toEqual([]);
    await sb.roundTrip();
    expect(sb.messages.filter((m) => m.channel === 'orders').length).toBe(1);
    expect(sb.messages.some((m) => m.channel === 'sessionEnded')).toBe(false);
    for (const c of [s1, s2, sb]) c.close();
  });

  it('endAllSessions (password change, 2FA change, account freeze) ends the sockets and the HTTP sessions alike', async () => {
    const mail = `ws-freeze-${Date.now()}@example.com`;
    const a = await loginNewUser(t, mail);
    const c = await authedSocket(a);
    expect((await get(t.app, 'member/member/getMember', {}, headers(a))).statusCode).toBe(200);
    await t.ctx.members.endAllSessions(a.userId, 'account_frozen');
    expect(await c.next((m) => m.channel === 'sessionEnded', 1000)).toMatchObject({ reason: 'account_frozen' });
    expect((await get(t.app, 'member/member/getMember', {}, headers(a))).statusCode).toBe(401);
    await placeOrder(a.userId);
    expect(await privateAfterEnd(c)).toEqual([]);
    c.close();
  });
});
