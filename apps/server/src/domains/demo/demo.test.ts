/**
 * Proves the demo outbox cannot be used to take over an account: the former path (puzzle ->
 * sendCode FORGET for someone else's account -> read the outbox without logging in -> forgetPassword) finds no
 * code; the account's logged-in owner sees it; a REGISTER code of an account not registered yet is shown (that is
 * how a visitor signs up to the demo); and clients that are not on loopback get 403. Also that GET demo/info
 * states the USDT a new account really gets in demo mode (the sign-up page shows it) and "0" without demo mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { allowResend, get, passPuzzle, post, registerEmail } from '../member/member-test-app';
import { isLoopback } from './demo.routes';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo info', () => {
  it('states the USDT credited to a new account, which is what a new account holds', async () => {
    const info = await get(t.app, 'demo/info', {}, { ip: '10.1.2.3' });
    expect(info.json()).toMatchObject({ status: 'SUCCEED', result: { demoMode: true, welcomeUsdt: '10000' } });
    const user = await registerEmail(t, 'welcome@example.com', 'Secret123');
    const assets = await get(t.app, 'asset/asset/getAssets', {}, { headers: { token: user.token, userId: user.userId } });
    const spot = assets.json().result.accounts.find((a: { type: string }) => a.type === 'SPOT');
    const usdt = spot.items.find((i: { coin: string }) => i.coin === 'USDT');
    // Whole USDT: the balance is the figure with zero decimals ("10000.00000000").
    expect(usdt.current).toMatch(/^\d+(\.0+)?$/);
    expect(usdt.current.split('.')[0]).toBe(info.json().result.welcomeUsdt);
  });

  it('says "0" without demo mode', async () => {
    const off = await makeTestApp({ demoMode: false });
    try {
      const info = await get(off.app, 'demo/info', {});
      expect(info.json()).toMatchObject({ status: 'SUCCEED', result: { demoMode: false, welcomeUsdt: '0' } });
    } finally {
      await off.close();
    }
  });
});

describe('demo outbox', () => {
  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '192.168.1.1', '2001:db8::1', '1127.0.0.1'].some(isLoopback)).toBe(false);
  });

  it('closes the takeover path: a FORGET code of an existing account is shown only to its logged-in owner', async () => {
    const victim = await registerEmail(t, 'victim@example.com', 'Secret123');
    await allowResend(t);
    const pass = await passPuzzle(t, '127.0.0.1');
    const sent = await post(t.app, 'data/sms/sendCode', { account: 'victim@example.com', type: 'FORGET', ...pass });
    expect(sent.json(), sent.body).toMatchObject({ status: 'SUCCEED' });
    const anonymous = await get(t.app, 'demo/outbox', { account: 'victim@example.com' });
    expect(anonymous.json().status).toBe('SUCCEED');
    expect(anonymous.json().result).toEqual([]);
    const forged = await get(t.app, 'demo/outbox', { account: 'victim@example.com' }, { headers: { token: 'x'.repeat(43), userId: victim.userId } });
    expect(forged.json().result).toEqual([]);
    const owner = await get(t.app, 'demo/outbox', { account: 'victim@example.com' }, { headers: { token: victim.token, userId: victim.userId } });
    expect(owner.json().result.map((m: { type: string }) => m.type)).toContain('FORGET');
    // Someone else's session does not see it either.
    const other = await registerEmail(t, 'other@example.com', 'Secret123');
    const wrong = await get(t.app, 'demo/outbox', { account: 'victim@example.com' }, { headers: { token: other.token, userId: other.userId } });
    expect(wrong.json().result).toEqual([]);
  });

  it('shows a BIND code to an address nobody owns to a logged-in caller only (account centre in the demo)', async () => {
    const binder = await registerEmail(t, 'binder@example.com', 'Secret123');
    await allowResend(t);
    const pass = await passPuzzle(t, '127.0.0.1');
    const sent = await post(
      t.app,
      'data/sms/sendCode',
      { account: '13912345678', areaCode: '86', type: 'BIND', ...pass },
      { headers: { token: binder.token, userId: binder.userId } },
    );
    expect(sent.json(), sent.body).toMatchObject({ status: 'SUCCEED' });
    const anonymous = await get(t.app, 'demo/outbox', { account: '13912345678' });
    expect(anonymous.json().result).toEqual([]);
    const loggedIn = await get(t.app, 'demo/outbox', { account: '13912345678' }, { headers: { token: binder.token, userId: binder.userId } });
    expect(loggedIn.json().result).toHaveLength(1);
    expect(loggedIn.json().result[0]).toMatchObject({ account: '13912345678', type: 'BIND' });
    expect(loggedIn.json().result[0].code).toMatch(/^[0-9]{6}$/);
  });

  it('shows a REGISTER code of an account not registered yet, to loopback clients only', async () => {
    const pass = await passPuzzle(t, '127.0.0.1');
    await post(t.app, 'data/sms/sendCode', { account: 'newcomer@example.com', type: 'REGISTER', ...pass });
    const box = await get(t.app, 'demo/outbox', { account: 'newcomer@example.com' });
    expect(box.json().result).toHaveLength(1);
    expect(box.json().result[0]).toMatchObject({ account: 'newcomer@example.com', type: 'REGISTER' });
    expect(box.json().result[0].code).toMatch(/^[0-9]{6}$/);
    const remote = await get(t.app, 'demo/outbox', { account: 'newcomer@example.com' }, { ip: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toMatchObject({ status: 'FAILED', errorCode: 'forbidden' });
  });
});
