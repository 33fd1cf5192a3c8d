/**
 * Proves account security through app.inject (PGlite, or PostgreSQL with DATABASE_URL): binding a second address
 * (BIND code to it plus a VERIFY code to the existing one; the new key logs in; a bound kind cannot be changed;
 * another user's address gets no code), the transaction password (rules, 5 wrong -> 2 h lock with the minutes left,
 * lifted by forget), Google authenticator (the same pending secret, stored sealed, bind with a TOTP computed by
 * otplib here, wrong / expired / reused codes refused, 5 wrong -> google_code_locked, login asks for the code once
 * bound, close sets the 24 h GOOGLE_CLOSED lock), password change (other sessions ended, PASSWORD_CHANGED lock) and
 * reset (PASSWORD_RESET lock), sessions (device from the User-Agent, current flag, revoke; another user's session
 * id cannot be revoked) and the security log (own entries only), last seen written at most once a minute (a member
 * service with a clock of its own), and the engine's `frozen` field refusing orders but not cancels through the API.
 * Lock end times are checked against the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginFailures, sessions } from '../member/member.tables';
import { securityAttempts, totpUsedSteps } from './security.tables';
import { createHooks } from '../../platform/shared/hooks';
import { createMemberService, SESSION_TOUCH_MS } from '../member/member.service';
import { sha256Hex } from '../../platform/shared/secrets';
import { listOutbox } from '../verification/outbox.repository';
import { allowResend, get, makeMemberTestApp, passPuzzle, post, randomIp, registerEmail, sendAndReadCode } from '../member/member-test-app';
import { WITHDRAW_LOCK_MS } from './security.service';

let t: TestApp;
beforeAll(async () => {
  t = await makeMemberTestApp(NO_RATE_LIMITS);
});
afterAll(async () => {
  await t?.close();
});

type Sess = { token: string; userId: string };
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const auth = (s: Sess, extra: Record<string, string> = {}) => ({ headers: { token: s.token, userId: s.userId, ...extra } });

/** Sends a VERIFY code to the session's own address (channel picks) and reads it from the demo outbox of `address`. */
async function verifyCode(s: Sess, address: string, channel?: 'EMAIL' | 'PHONE'): Promise<string> {
  await allowResend(t);
  const pass = await passPuzzle(t);
  const res = await post(t.app, 'data/sms/sendCode', { type: 'VERIFY', channel, ...pass }, auth(s));
  expect(res.json().status, res.body).toBe('SUCCEED');
  const box = await listOutbox(t.ctx.db, address);
  expect(box[0]?.type).toBe('VERIFY');
  return box[0]!.code;
}

/** Logs in from a fresh IP with a puzzle pass (used only once the account's failures ask for it). */
async function login(account: string, password: string, extra: Record<string, string> = {}, ua = CHROME_MAC) {
  const pass = await passPuzzle(t);
  return post(t.app, 'member/member/login', { account, password, ...pass, ...extra }, { ip: randomIp(), headers: { 'user-agent': ua } });
}

function expectCode(res: { statusCode: number; json(): { status: string; errorCode: string } }, code: string, status = 400): void {
  expect(res.json().errorCode, JSON.stringify(res.json())).toBe(code);
  expect(res.json().status).toBe('FAILED');
  expect(res.statusCode).toBe(status);
}

const totp = (secret: string, atMs = Date.now()) => generateSync({ secret, epoch: Math.floor(atMs / 1000) });

describe('account centre and binding', () => {
  it('shows the state, binds a phone with both codes, logs in by it, refuses a second binding and addresses of others', async () => {
    const a = await registerEmail(t, 'bind-a@example.com', 'Secret123');
    const b = await registerEmail(t, 'bind-b@example.com', 'Secret123');
    const s0 = (await get(t.app, 'member/security/getSecurity', {}, auth(a))).json().result;
    expect(s0).toEqual({
      phone: '',
      areaCode: '',
      mail: 'bin***@example.com',
      googleBound: false,
      transPasswordSet: false,
      withdrawLock: null,
      lastLogin: null,
    });

    const bindCode = await sendAndReadCode(t, '13800138123', 'BIND', { areaCode: '86' });
    const body = { bindType: 'PHONE', phone: '13800138123', areaCode: '86', code: bindCode };
    // No second proof, then a wrong one: refused and nothing bound.
    expectCode(await post(t.app, 'member/security/bindAccount', body, auth(a)), 'verify_code_required');
    const v = await verifyCode(a, 'bind-a@example.com');
    expectCode(
      await post(t.app, 'member/security/bindAccount', { ...body, code: bindCode === '000000' ? '111111' : '000000', verifyCode: v }, auth(a)),
      'code_invalid',
    );
    const bindCode2 = await (async () => {
      await allowResend(t);
      return sendAndReadCode(t, '13800138123', 'BIND', { areaCode: '86' });
    })();
    const ok = await post(t.app, 'member/security/bindAccount', { ...body, code: bindCode2, verifyCode: v }, auth(a));
    expect(ok.json().status, ok.body).toBe('SUCCEED');
    expect(t.ctx.host.engine.userByKey('phone:86:13800138123')).toBe(a.userId);
    const s1 = (await get(t.app, 'member/security/getSecurity', {}, auth(a))).json().result;
    expect(s1).toMatchObject({ phone: '138****8123', areaCode: '86' });
    expect((await login('13800138123', 'Secret123')).json().result.userId).toBe(a.userId);
    // A bound kind cannot be changed here.
    expectCode(
      await post(
        t.app,
        'member/security/bindAccount',
        { bindType: 'PHONE', phone: '13900139000', areaCode: '86', code: '123456', verifyCode: '123456' },
        auth(a),
      ),
      'account_already_bound',
    );
    // b asks for a BIND code to a's phone: none is sent (a's owner gets a notice), so any code is wrong.
    await allowResend(t);
    const pass = await passPuzzle(t);
    await post(t.app, 'data/sms/sendCode', { account: '13800138123', areaCode: '86', type: 'BIND', ...pass });
    expect((await listOutbox(t.ctx.db, '13800138123'))[0]!.type).toBe('BIND_NOTICE');
    const vb = await verifyCode(b, 'bind-b@example.com');
    expectCode(
      await post(t.app, 'member/security/bindAccount', { bindType: 'PHONE', phone: '13800138123', areaCode: '86', code: '123456', verifyCode: vb }, auth(b)),
      'code_invalid',
    );
    expect(t.ctx.host.engine.user(b.userId)!.profile.phone).toBe('');
    // VERIFY by phone reaches a's phone now that both are bound.
    expect(await verifyCode(a, '13800138123', 'PHONE')).toMatch(/^[0-9]{6}$/);
    expectCode(await post(t.app, 'data/sms/sendCode', { type: 'VERIFY', channel: 'PHONE', ...(await passPuzzle(t)) }, auth(b)), 'channel_not_bound');
    // VERIFY needs a session.
    expectCode(await post(t.app, 'data/sms/sendCode', { type: 'VERIFY', ...(await passPuzzle(t)) }), 'unauthorized', 401);
    // A VERIFY code to one's own proven address needs no puzzle; a code to an address not yet proven (BIND,
    // REGISTER) still does, and is refused without one.
    await allowResend(t);
    const before = (await listOutbox(t.ctx.db, 'bind-b@example.com')).length;
    const own = await post(t.app, 'data/sms/sendCode', { type: 'VERIFY' }, auth(b));
    expect(own.json().status, own.body).toBe('SUCCEED');
    const box = await listOutbox(t.ctx.db, 'bind-b@example.com');
    expect(box.length).toBe(before + 1);
    expect(box[0]!.type).toBe('VERIFY');
    expectCode(await post(t.app, 'data/sms/sendCode', { account: 'unproven-b@example.com', type: 'BIND' }, auth(b)), 'captcha_required');
    expectCode(await post(t.app, 'data/sms/sendCode', { account: 'unproven-c@example.com', type: 'REGISTER' }), 'captcha_required');
    expect(await listOutbox(t.ctx.db, 'unproven-b@example.com')).toEqual([]);
    expect(await listOutbox(t.ctx.db, 'unproven-c@example.com')).toEqual([]);
  });
});

describe('transaction password', () => {
  it('sets 6 digits with a VERIFY code, locks after 5 wrong ones for 2 hours, and forget lifts the lock', async () => {
    const a = await registerEmail(t, 'trans-a@example.com', 'Secret123');
    expectCode(
      await t.ctx.security.verifyTransactionPassword(a.userId, '123456').then(
        () => ({ statusCode: 0, json: () => ({ status: '', errorCode: '' }) }),
        (e: { code: string; status: number }) => ({ statusCode: e.status, json: () => ({ status: 'FAILED', errorCode: e.code }) }),
      ),
      'trans_password_not_set',
    );
    const v = await verifyCode(a, 'trans-a@example.com');
    expectCode(
      await post(t.app, 'member/security/setTransPassword', { transPassword: '12345a', confirmTransPassword: '12345a', verifyCode: v }, auth(a)),
      'trans_password_invalid',
    );
    expectCode(
      await post(t.app, 'member/security/setTransPassword', { transPassword: '123456', confirmTransPassword: '123457', verifyCode: v }, auth(a)),
      'trans_password_mismatch',
    );
    expectCode(
      await post(t.app, 'member/security/setTransPassword', { transPassword: '１２３４５６', confirmTransPassword: '１２３４５６', verifyCode: v }, auth(a)),
      'trans_password_invalid',
    );
    const set = await post(t.app, 'member/security/setTransPassword', { transPassword: '246810', confirmTransPassword: '246810', verifyCode: v }, auth(a));
    expect(set.json().status, set.body).toBe('SUCCEED');
    expect(t.ctx.host.engine.user(a.userId)!.profile.transPasswordHash).toMatch(/^\$argon2id\$/);
    expectCode(
      await post(t.app, 'member/security/setTransPassword', { transPassword: '111111', confirmTransPassword: '111111', verifyCode: v }, auth(a)),
      'trans_password_already_set',
    );
    await t.ctx.security.verifyTransactionPassword(a.userId, '246810');

    // change: the old one is checked (and counts toward the lock)
    expectCode(
      await post(
        t.app,
        'member/security/changeTransPassword',
        { oldTransPassword: '000000', transPassword: '135790', confirmTransPassword: '135790' },
        auth(a),
      ),
      'trans_password_wrong',
    );
    const ch = await post(
      t.app,
      'member/security/changeTransPassword',
      { oldTransPassword: '246810', transPassword: '135790', confirmTransPassword: '135790' },
      auth(a),
    );
    expect(ch.json().status, ch.body).toBe('SUCCEED');

    for (let i = 1; i <= 4; i++)
      await expect(t.ctx.security.verifyTransactionPassword(a.userId, '000000')).rejects.toMatchObject({ code: 'trans_password_wrong' });
    await expect(t.ctx.security.verifyTransactionPassword(a.userId, '000000')).rejects.toMatchObject({
      code: 'trans_password_locked',
      params: { minutes: '120' },
    });
    // Locked: even the right one is refused, and the message says when (zh and en).
    await expect(t.ctx.security.verifyTransactionPassword(a.userId, '135790')).rejects.toMatchObject({ code: 'trans_password_locked' });
    const locked = await post(
      t.app,
      'member/security/changeTransPassword',
      { oldTransPassword: '135790', transPassword: '112233', confirmTransPassword: '112233' },
      { ...auth(a), lang: 'zh' },
    );
    expectCode(locked, 'trans_password_locked', 429);
    expect(locked.json().errorMessage).toMatch(/^交易密码错误5次已锁定，请1(19|20)分钟后再试$/);
    const lockedEn = await post(
      t.app,
      'member/security/changeTransPassword',
      { oldTransPassword: '135790', transPassword: '112233', confirmTransPassword: '112233' },
      auth(a),
    );
    expect(lockedEn.json().errorMessage).toMatch(/try again in 1(19|20) minutes$/);
    // Two hours later (the lock's end moved into the past) the right one works again.
    const id = BigInt(a.userId);
    await t.ctx.db
      .update(securityAttempts)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(and(eq(securityAttempts.userId, id), eq(securityAttempts.kind, 'TRANS_PASSWORD')));
    await t.ctx.security.verifyTransactionPassword(a.userId, '135790');

    // Lock it again, then forget: a VERIFY code resets it and lifts the lock.
    for (let i = 1; i <= 5; i++) await t.ctx.security.verifyTransactionPassword(a.userId, '000000').catch(() => {});
    await expect(t.ctx.security.verifyTransactionPassword(a.userId, '135790')).rejects.toMatchObject({ code: 'trans_password_locked' });
    const v2 = await verifyCode(a, 'trans-a@example.com');
    const f = await post(t.app, 'member/security/forgetTransPassword', { verifyCode: v2, transPassword: '975310', confirmTransPassword: '975310' }, auth(a));
    expect(f.json().status, f.body).toBe('SUCCEED');
    await t.ctx.security.verifyTransactionPassword(a.userId, '975310');
    // Reused VERIFY code: refused.
    expectCode(
      await post(t.app, 'member/security/forgetTransPassword', { verifyCode: v2, transPassword: '975311', confirmTransPassword: '975311' }, auth(a)),
      'code_invalid',
    );
  });
});

describe('Google authenticator', () => {
  it('offers one pending secret, binds it with a TOTP, asks for it at login, refuses wrong, expired and reused codes, locks after 5, and closing locks withdrawals 24 h', async () => {
    const a = await registerEmail(t, 'google-a@example.com', 'Secret123');
    const g1 = (await get(t.app, 'member/security/googleSecret', {}, auth(a))).json().result;
    const g2 = (await get(t.app, 'member/security/googleSecret', {}, auth(a))).json().result;
    expect(g1.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(g2.secret).toBe(g1.secret);
    expect(g1.otpauthUrl).toBe(`otpauth://totp/Exchange:google-a%40example.com?secret=${g1.secret}&issuer=Exchange`);
    const secret = g1.secret as string;

    const v = await verifyCode(a, 'google-a@example.com');
    const wrong = totp(secret) === '000000' ? '111111' : '000000';
    expectCode(
      await post(t.app, 'member/security/bindGoogle', { googleCode: totp(secret), verifyCode: v === '000000' ? '111111' : '000000' }, auth(a)),
      'code_invalid',
    );
    expectCode(await post(t.app, 'member/security/bindGoogle', { googleCode: wrong, verifyCode: v }, auth(a)), 'google_code_invalid');
    const v1 = await verifyCode(a, 'google-a@example.com'); // the first was used by the attempt with the wrong TOTP
    const bindCode = totp(secret);
    const bound = await post(t.app, 'member/security/bindGoogle', { googleCode: bindCode, verifyCode: v1 }, auth(a));
    expect(bound.json().status, bound.body).toBe('SUCCEED');
    // Stored sealed in the profile, never in clear.
    const sealed = t.ctx.host.engine.user(a.userId)!.profile.googleSecret!;
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret);
    expect((await get(t.app, 'member/security/getSecurity', {}, auth(a))).json().result.googleBound).toBe(true);
    expectCode(await get(t.app, 'member/security/googleSecret', {}, auth(a)), 'google_already_bound');

    // Login: password first, then the code is asked for; the code used for binding cannot be reused.
    expectCode(await login('google-a@example.com', 'wrong-pass-1'), 'login_failed');
    expectCode(await login('google-a@example.com', 'Secret123'), 'google_code_required');
    expectCode(await login('google-a@example.com', 'Secret123', { googleCode: bindCode }), 'google_code_invalid');
    // A code of two minutes ago (outside the window of one step) is refused.
    expectCode(await login('google-a@example.com', 'Secret123', { googleCode: totp(secret, Date.now() - 120_000) }), 'google_code_invalid');
    // Wrong codes count as failed logins (the login limits) and are in the security log as such.
    const failed = await t.ctx.db.select().from(loginFailures).where(eq(loginFailures.account, 'google-a@example.com'));
    expect(failed).toHaveLength(3);
    const logged = (await get(t.app, 'member/security/getSecurityLog', {}, auth(a))).json().result.list as Array<{ type: string; detail: string }>;
    expect(logged.slice(0, 3)).toEqual([
      expect.objectContaining({ type: 'LOGIN_FAILED', detail: 'GOOGLE' }),
      expect.objectContaining({ type: 'LOGIN_FAILED', detail: 'GOOGLE' }),
      expect.objectContaining({ type: 'LOGIN_FAILED', detail: 'PASSWORD' }),
    ]);
    // The next step's code (window 1) is accepted once, then refused as used.
    const next = totp(secret, Date.now() + 30_000);
    const ok = await login('google-a@example.com', 'Secret123', { googleCode: next });
    expect(ok.json().status, ok.body).toBe('SUCCEED');
    const a2: Sess = ok.json().result;
    expectCode(await login('google-a@example.com', 'Secret123', { googleCode: next }), 'google_code_invalid');

    // The second factor of other actions is the TOTP now.
    expectCode(
      await post(t.app, 'member/security/setTransPassword', { transPassword: '246810', confirmTransPassword: '246810', verifyCode: '123456' }, auth(a2)),
      'google_code_required',
    );

    // Five wrong codes in 15 minutes lock TOTP: the reused one above was the first since the last success.
    const codes: string[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        await t.ctx.security.verifySecondFactor(a.userId, { googleCode: wrong }).then(
          () => 'ok',
          (e: { code: string }) => e.code,
        ),
      );
    expect(codes).toEqual(['google_code_invalid', 'google_code_invalid', 'google_code_invalid', 'google_code_locked']);
    // Locked: a right code is refused too, at login and elsewhere, with the minutes left (zh and en).
    const lockedLogin = await login('google-a@example.com', 'Secret123', { googleCode: totp(secret, Date.now() + 60_000) });
    expectCode(lockedLogin, 'google_code_locked', 429);
    expect(lockedLogin.json().errorMessage).toMatch(/try again in 1[45] minutes$/);
    const lockedRes = await post(t.app, 'member/security/closeGoogle', { googleCode: totp(secret), verifyCode: '123456' }, auth(a2));
    expectCode(lockedRes, 'google_code_locked', 429);
    expect(lockedRes.json().errorMessage).toMatch(/try again in 1[45] minutes$/);
    const lockedZh = await post(t.app, 'member/security/closeGoogle', { googleCode: totp(secret), verifyCode: '123456' }, { ...auth(a2), lang: 'zh' });
    expect(lockedZh.json().errorMessage).toMatch(/^谷歌验证码错误次数过多，请1[45]分钟后再试$/);
    // Fifteen minutes later: the lock has passed, and the steps used so far are in the past (forgotten here, as the
    // clock cannot be moved: the next step's code, used above, is the latest the window allows now).
    await t.ctx.db
      .update(securityAttempts)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(securityAttempts.userId, BigInt(a.userId)));
    await t.ctx.db
      .update(totpUsedSteps)
      .set({ lastStep: 0 })
      .where(eq(totpUsedSteps.userId, BigInt(a.userId)));

    // Close: TOTP and a VERIFY code; withdrawals locked 24 h; login no longer asks for the code.
    const v2 = await verifyCode(a2, 'google-a@example.com');
    const before = Date.now();
    const closed = await post(t.app, 'member/security/closeGoogle', { googleCode: totp(secret), verifyCode: v2 }, auth(a2));
    expect(closed.json().status, closed.body).toBe('SUCCEED');
    const lock = closed.json().result as { until: number; reason: string };
    expect(lock.reason).toBe('GOOGLE_CLOSED');
    expect(lock.until).toBeGreaterThanOrEqual(before + WITHDRAW_LOCK_MS);
    expect(lock.until).toBeLessThanOrEqual(Date.now() + WITHDRAW_LOCK_MS);
    expect(t.ctx.security.withdrawalLock(a.userId)).toEqual(lock);
    expect((await get(t.app, 'member/security/getSecurity', {}, auth(a2))).json().result).toMatchObject({ googleBound: false, withdrawLock: lock });
    expect((await login('google-a@example.com', 'Secret123')).json().status).toBe('SUCCEED');
  });
});

describe('login password', () => {
  it('changes the password with the old one and a VERIFY code, ends the other sessions and locks withdrawals 24 h; a reset locks them too', async () => {
    const first = await registerEmail(t, 'pw-a@example.com', 'Secret123');
    const second: Sess = (await login('pw-a@example.com', 'Secret123')).json().result;
    const v = await verifyCode(first, 'pw-a@example.com');
    const body = { oldPassword: 'Secret123', password: 'NewSecret9', confirmPassword: 'NewSecret9', verifyCode: v };
    expectCode(await post(t.app, 'member/security/changePassword', { ...body, oldPassword: 'Wrong1234' }, auth(first)), 'password_wrong');
    expectCode(
      await post(t.app, 'member/security/changePassword', { ...body, password: '12345678', confirmPassword: '12345678' }, auth(first)),
      'password_invalid',
    );
    expectCode(await post(t.app, 'member/security/changePassword', { ...body, confirmPassword: 'NewSecret8' }, auth(first)), 'password_mismatch');
    expectCode(
      await post(t.app, 'member/security/changePassword', { ...body, password: 'Secret123', confirmPassword: 'Secret123' }, auth(first)),
      'password_same',
    );
    const before = Date.now();
    const ok = await post(t.app, 'member/security/changePassword', body, auth(first));
    expect(ok.json().status, ok.body).toBe('SUCCEED');
    expect(ok.json().result.reason).toBe('PASSWORD_CHANGED');
    expect(ok.json().result.until).toBeGreaterThanOrEqual(before + WITHDRAW_LOCK_MS);
    expect(t.ctx.security.withdrawalLock(first.userId)?.reason).toBe('PASSWORD_CHANGED');
    // This session goes on; the other one is ended.
    expect((await get(t.app, 'member/security/getSecurity', {}, auth(first))).statusCode).toBe(200);
    expectCode(await get(t.app, 'member/security/getSecurity', {}, auth(second)), 'SYS.0015', 401);
    expectCode(await login('pw-a@example.com', 'Secret123'), 'login_failed');
    expect((await login('pw-a@example.com', 'NewSecret9')).json().status).toBe('SUCCEED');

    // Reset through forget: PASSWORD_RESET lock, from the time of the reset.
    const b = await registerEmail(t, 'pw-b@example.com', 'Secret123');
    expect(t.ctx.security.withdrawalLock(b.userId)).toBeNull();
    await allowResend(t);
    const code = await sendAndReadCode(t, 'pw-b@example.com', 'FORGET');
    const t0 = Date.now();
    const reset = await post(t.app, 'member/member/forgetPassword', { account: 'pw-b@example.com', code, password: 'Reset1234', confirmPassword: 'Reset1234' });
    expect(reset.json().status, reset.body).toBe('SUCCEED');
    const lock = t.ctx.security.withdrawalLock(b.userId)!;
    expect(lock.reason).toBe('PASSWORD_RESET');
    expect(lock.until - t0).toBeGreaterThanOrEqual(WITHDRAW_LOCK_MS - 1000);
    expect(lock.until - Date.now()).toBeLessThanOrEqual(WITHDRAW_LOCK_MS);
  });
});

describe('sessions and the security log', () => {
  it('lists devices with the current one, revokes one everywhere, never another user’s, and logs only the user’s own events', async () => {
    await registerEmail(t, 'sess-a@example.com', 'Secret123');
    const b = await registerEmail(t, 'sess-b@example.com', 'Secret123');
    const mac: Sess = (await login('sess-a@example.com', 'Secret123', {}, CHROME_MAC)).json().result;
    const phone: Sess = (await login('sess-a@example.com', 'Secret123', {}, SAFARI_IPHONE)).json().result;
    expectCode(await login('sess-a@example.com', 'Wrong1234'), 'login_failed');
    const list = (await get(t.app, 'member/security/getSessions', {}, auth(mac))).json().result as Array<{
      id: string;
      device: string;
      current: boolean;
      ip: string;
      lastSeenAt: number;
    }>;
    expect(list.length).toBe(3); // registration's session, mac, phone
    const mine = list.find((s) => s.current)!;
    expect(mine.device).toBe('Chrome 120 on macOS Catalina');
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const other = list.find((s) => s.device.startsWith('Safari'))!;
    expect(other.device).toBe('Safari 17 on iOS 17.1');
    expect(other.ip).toMatch(/^10\./);
    expect(JSON.stringify(list)).not.toMatch(/[0-9a-f]{64}/); // no token hashes

    // b cannot revoke a's session (nor learn whether it exists); a's phone session stays.
    expectCode(await post(t.app, 'member/security/revokeSession', { id: other.id }, auth(b)), 'session_not_found', 404);
    expect((await get(t.app, 'member/security/getSecurity', {}, auth(phone))).statusCode).toBe(200);
    const r = await post(t.app, 'member/security/revokeSession', { id: other.id }, auth(mac));
    expect(r.json().status, r.body).toBe('SUCCEED');
    expectCode(await get(t.app, 'member/security/getSecurity', {}, auth(phone)), 'SYS.0015', 401);
    expectCode(await post(t.app, 'member/security/revokeSession', { id: other.id }, auth(mac)), 'session_not_found', 404);
    expect(((await get(t.app, 'member/security/getSessions', {}, auth(mac))).json().result as unknown[]).length).toBe(2);

    const log = (await get(t.app, 'member/security/getSecurityLog', { pageNo: '1', pageSize: '10' }, auth(mac))).json().result;
    expect(log.list.map((e: { type: string }) => e.type)).toEqual(['SESSION_REVOKED', 'LOGIN_FAILED', 'LOGIN', 'LOGIN']);
    expect(log.total).toBe(4);
    expect(log.list[1]).toMatchObject({ detail: 'PASSWORD' });
    expect(log.list[3]).toMatchObject({ device: 'Chrome 120 on macOS Catalina' });
    const page2 = (await get(t.app, 'member/security/getSecurityLog', { pageNo: '2', pageSize: '3' }, auth(mac))).json().result;
    expect(page2.list.map((e: { type: string }) => e.type)).toEqual(['LOGIN']);
    const bLog = (await get(t.app, 'member/security/getSecurityLog', {}, auth(b))).json().result;
    expect(bLog.total).toBe(0);
    const state = (await get(t.app, 'member/security/getSecurity', {}, auth(mac))).json().result;
    expect(state.lastLogin.ip).toMatch(/^10\./);
  });
});

describe('last seen and the frozen profile field', () => {
  it("writes a session's last-seen time at most once a minute", async () => {
    const a = await registerEmail(t, 'seen-a@example.com', 'Secret123');
    let clock = Date.now();
    // A second member service on the same database and engine with a clock of its own.
    const members = createMemberService({
      db: t.ctx.db,
      log: t.ctx.log,
      hooks: createHooks(),
      host: t.ctx.host,
      captcha: t.ctx.captcha,
      codes: t.ctx.codes,
      now: () => clock,
    });
    const seen = async () =>
      (
        await t.ctx.db
          .select({ at: sessions.lastSeenAt })
          .from(sessions)
          .where(eq(sessions.tokenHash, sha256Hex(a.token)))
      )[0]!.at;
    const settle = () => new Promise((r) => setTimeout(r, 50));
    expect(await members.authenticate(a.token, a.userId)).toBe(a.userId);
    await settle();
    expect(await seen()).toBeNull(); // opened just now: nothing to write yet
    clock += SESSION_TOUCH_MS + 1000;
    expect(await members.authenticate(a.token, a.userId)).toBe(a.userId);
    await settle();
    expect((await seen())?.getTime()).toBe(clock);
    const first = clock;
    clock += 30_000; // within the minute: not written again
    expect(await members.authenticate(a.token, a.userId)).toBe(a.userId);
    await settle();
    expect((await seen())?.getTime()).toBe(first);
    clock += 31_000;
    expect(await members.authenticate(a.token, a.userId)).toBe(a.userId);
    await settle();
    expect((await seen())?.getTime()).toBe(clock);
    const list = (await get(t.app, 'member/security/getSessions', {}, auth(a))).json().result as Array<{ lastSeenAt: number }>;
    expect(list[0]!.lastSeenAt).toBe(clock);
  });

  it("refuses a frozen user's orders (account_frozen, zh and en) and still lets them cancel", async () => {
    const a = await registerEmail(t, 'frozen-a@example.com', 'Secret123');
    expect(
      (
        await t.ctx.host.submit({
          type: 'deposit',
          userId: a.userId,
          asset: 'USDT',
          account: 'SPOT',
          amount: 1_000n * 10n ** BigInt(t.ctx.host.engine.asset('USDT')!.scale),
          from: '@chain',
        })
      ).code,
    ).toBe('ok');
    const order = { pairsName: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', price: '100', amount: '0.1' };
    const placed = await post(t.app, 'entrust/entrust/setEntrust', order, auth(a));
    expect(placed.json().status, placed.body).toBe('SUCCEED');
    expect((await t.ctx.host.submit({ type: 'updateUser', userId: a.userId, profile: { frozen: '1' }, audit: { test: 'freeze' } })).code).toBe('ok');
    const refused = await post(t.app, 'entrust/entrust/setEntrust', order, auth(a));
    expectCode(refused, 'account_frozen');
    expect(refused.json().errorMessage).toMatch(/frozen/);
    expect((await post(t.app, 'entrust/entrust/setEntrust', order, { ...auth(a), lang: 'zh' })).json().errorMessage).toMatch(/冻结/);
    const cancel = await post(t.app, 'entrust/entrust/cancelEntrust', { id: placed.json().result.id }, auth(a));
    expect(cancel.json().status, cancel.body).toBe('SUCCEED');
  });
});

describe('password reset with Google authenticator bound', () => {
  it('asks for the Google code too; without it the e-mail code stays live, a wrong one is refused, both together reset', async () => {
    const a = await registerEmail(t, 'google-reset@example.com', 'Secret123');
    const secret = (await get(t.app, 'member/security/googleSecret', {}, auth(a))).json().result.secret as string;
    const bindCode = totp(secret);
    expect(
      (await post(t.app, 'member/security/bindGoogle', { googleCode: bindCode, verifyCode: await verifyCode(a, 'google-reset@example.com') }, auth(a))).json()
        .status,
    ).toBe('SUCCEED');
    await allowResend(t);
    const code = await sendAndReadCode(t, 'google-reset@example.com', 'FORGET', { ip: randomIp() });
    const reset = (extra: Record<string, string>) =>
      post(
        t.app,
        'member/member/forgetPassword',
        { account: 'google-reset@example.com', code, password: 'NewSecret9', confirmPassword: 'NewSecret9', ...extra },
        { ip: randomIp() },
      );
    expectCode(await reset({}), 'google_code_required');
    // the bind's code was used once: refused as used; a code of another step is wrong
    expectCode(await reset({ googleCode: bindCode }), 'google_code_invalid');
    expectCode(await login('google-reset@example.com', 'NewSecret9'), 'login_failed');
    const ok = await reset({ googleCode: totp(secret, Date.now() + 30_000) });
    expect(ok.json().status, ok.body).toBe('SUCCEED');
    // the e-mail code is spent now; the new password logs in, with the Google code
    expectCode(await reset({ googleCode: totp(secret, Date.now() - 30_000) }), 'code_invalid');
    expectCode(await login('google-reset@example.com', 'NewSecret9'), 'google_code_required');
  });
});
