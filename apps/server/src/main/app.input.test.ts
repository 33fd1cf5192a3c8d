/**
 * Proves hostile text is a 4xx that changes nothing: a NUL byte in the nickname, the account
 * or the invitation code (formerly a 500 with the failing SQL and its parameters in the log), a lone surrogate in a
 * JSON body, an RTL override in a nickname, and raw overlong UTF-8 bytes in a form body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/helpers';
import { post, registerEmail } from '../domains/member/member-test-app';

let t: TestApp;
let user: { token: string; userId: string };
beforeAll(async () => {
  t = await makeTestApp();
  user = await registerEmail(t, 'text@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe('hostile input text', () => {
  it('refuses NUL, lone surrogates and bidi controls with 400 invalid_characters, changing nothing', async () => {
    const auth = { headers: { token: user.token, userId: user.userId } };
    // A lone surrogate can only travel in JSON: form encoding turns it into U+FFFD on the way.
    for (const [nickName, encodings] of [
      ['ab\u0000c', [false, true]],
      ['\ud800x', [true]],
      ['admin\u202Etxt.exe', [false, true]],
    ] as const) {
      for (const json of encodings) {
        const res = await post(t.app, 'member/member/setNickName', { nickName }, { ...auth, json });
        expect(res.statusCode, `${JSON.stringify(nickName)} json=${json}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ status: 'FAILED', errorCode: 'invalid_characters' });
      }
    }
    expect((await t.ctx.members.getMember(user.userId)).nickName).toBe('');
    const login = await post(t.app, 'member/member/login', { account: 'text@example.com\u0000', password: 'Secret123' });
    expect(login.json()).toMatchObject({
      status: 'FAILED',
      errorCode: 'invalid_characters',
      errorMessage: 'The account contains characters that are not allowed',
    });
    const zh = await post(t.app, 'member/member/login', { account: 'a\u0000', password: 'Secret123' }, { lang: 'zh' });
    expect(zh.json().errorMessage).toBe('账号包含不允许的字符');
  });

  it('answers raw overlong UTF-8 with a 4xx', async () => {
    const payload = Buffer.concat([Buffer.from('account='), Buffer.from([0xc0, 0x80, 0xc0, 0xae]), Buffer.from('&password=Secret123')]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/member/member/login',
      payload,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().status).toBe('FAILED');
  });
});
