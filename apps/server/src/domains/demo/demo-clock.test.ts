/**
 * Proves the test-only clock control: in demo mode and from loopback it moves the server clock forward,
 * and the engine stamps later commands on the moved clock (the time the OTC time-out is judged on); a zero, negative,
 * fractional or over-a-day move is refused with a clear error in the request's language and moves nothing; without
 * demo mode the route answers 404 and from another address 403, and the clock stays where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { post } from '../member/member-test-app';

const PATH = 'demo/clock/advance';
const MIN = 60_000;
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('demo/clock/advance', () => {
  it('moves the clock forward; the next command is stamped on the moved clock', async () => {
    const before = Date.now();
    const r = await post(t.app, PATH, { minutes: 16 });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body).toMatchObject({ status: 'SUCCEED', result: { offsetMs: 16 * MIN } });
    expect(body.result.now).toBeGreaterThanOrEqual(before + 16 * MIN);
    const res = await t.ctx.host.submit({ type: 'deposit', userId: 'clock-u', asset: 'USDT', account: 'SPOT', amount: 1n, from: '@faucet' });
    expect(res.code).toBe('ok');
    const changed = res.events.find((e) => e.type === 'balanceChanged');
    expect(changed?.ts).toBeGreaterThanOrEqual(before + 16 * MIN);
    expect(changed?.ts).toBeLessThan(Date.now() + 17 * MIN);
    // A second move adds to the first.
    expect((await post(t.app, PATH, { minutes: 1 })).json().result.offsetMs).toBe(17 * MIN);
  });

  it('refuses a zero, negative, fractional, over-a-day or missing move in the request language, and moves nothing', async () => {
    const offset = t.ctx.clock.offsetMs;
    for (const minutes of ['0', '-5', '1.5', '1441', 'soon', undefined]) {
      for (const lang of ['en', 'zh'] as const) {
        const r = await post(t.app, PATH, { minutes }, { lang });
        expect(r.statusCode, String(minutes)).toBe(400);
        expect(r.json()).toMatchObject({ status: 'FAILED', errorCode: 'validation_failed' });
        expect(r.body).not.toMatch(/stack|at \//);
      }
    }
    const en = (await post(t.app, PATH, { minutes: 0 }, { lang: 'en' })).json().errorMessage;
    const zh = (await post(t.app, PATH, { minutes: 0 }, { lang: 'zh' })).json().errorMessage;
    expect(zh).not.toBe(en);
    expect(t.ctx.clock.offsetMs).toBe(offset);
  });

  it('answers 403 off loopback and 404 without demo mode, and the clock stays', async () => {
    const offset = t.ctx.clock.offsetMs;
    const far = await post(t.app, PATH, { minutes: 5 }, { ip: '10.0.0.9' });
    expect(far.statusCode).toBe(403);
    expect(t.ctx.clock.offsetMs).toBe(offset);
    const off = await makeTestApp({ demoMode: false });
    try {
      const r = await post(off.app, PATH, { minutes: 5 });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ status: 'FAILED', errorCode: 'not_found' });
      expect(off.ctx.clock.offsetMs).toBe(0);
    } finally {
      await off.close();
    }
  });
});
