/**
 * Proves the member API through app.inject (PGlite, or PostgreSQL with DATABASE_URL): registration by e-mail
 * and by phone with a code read from the demo outbox, each registration rule in zh and en, the
 * userRegistered hook, login with lockout and the puzzle after 3 failures, the per-IP puzzle, logout and
 * revoked/expired/mismatched tokens (401 SYS.0015) vs missing ones (401 unauthorized), password reset
 * revoking sessions, register and forgetPassword answering a wrong code alike (and as fast) for existing and
 * unknown accounts, the once-only nickname, favourites, the invitation code and that one user cannot read
 * another's data. Bodies are sent form-encoded unless a test says JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { errorText, type ErrorCode } from '@exchange/api';
import { NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { sessions, users } from './member.tables';
import { verificationCodes } from '../verification/verification.tables';
import { allowResend, get, makeMemberTestApp, passPuzzle, post, randomIp, registerEmail, sendAndReadCode } from './member-test-app';
import { DEMO_ACCOUNT, DEMO_PASSWORD, ensureDemoAccount } from './demo-account';
import { sha256Hex } from '../../platform/shared/secrets';

let t: TestApp;
const registered: string[] = [];
beforeAll(async () => {
  // Hundreds of requests from few IPs: the per-IP budgets are proven in platform/rate-limit/rate-limits.test.ts, not here.
  t = await makeMemberTestApp(NO_RATE_LIMITS);
  t.ctx.hooks.userRegistered.push(async (id) => {
    registered.push(id);
  });
});
afterAll(async () => {
  await t?.close();
});

const auth = (s: { token: string; userId: string }) => ({ headers: { token: s.token, userId: s.userId } });

/** Expects a FAILED envelope with `code`, its sentence in `lang` (naming `field` in words where the code does) and `status`. */
function expectFail(res: { statusCode: number; json(): unknown }, code: ErrorCode, lang: 'zh' | 'en', status = 400, field?: string): void {
  const msg = errorText(code, lang, field);
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: code, errorMessage: msg, result: null });
  expect(res.statusCode).toBe(status);
}

describe('register', () => {
  it('registers by e-mail, fires the hook, logs in and shows the member record', async () => {
    const s = await registerEmail(t, 'alice@example.com', 'Alice1234');
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.userId).toMatch(/^[1-9][0-9]*$/);
    expect(s.expiresAt - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(registered).toContain(s.userId);
    // Only the token's hash is stored.
    const rows = await t.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256Hex(s.token)));
    expect(rows).toHaveLength(1);
    const me = await get(t.app, 'member/member/getMember', { member: s.userId }, auth(s));
    expect(me.statusCode).toBe(200);
    const m = me.json().result;
    expect(m).toMatchObject({ userId: s.userId, nickName: '', phone: '', mail: 'alice@example.com', cardNo: '', cardState: '' });
    expect(m.uuid).toMatch(/^[1-9][0-9]{7}$/);
    expect(m.uuid).not.toBe(s.userId);
    const u = (await t.ctx.db.select().from(users).where(eq(users.mail, 'alice@example.com')))[0]!;
    expect(u.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await t.ctx.members.nickName(s.userId)).toBe('');
  });

  it('registers by phone with area code 86 by default (JSON body) and logs in by phone', async () => {
    const ip = randomIp();
    const code = await sendAndReadCode(t, '13900000001', 'REGISTER', { ip });
    const res = await post(
      t.app,
      'member/member/register',
      { registerType: 'PHONE', phone: '13900000001', code, password: 'Phone1234', confirmPassword: 'Phone1234', agreement: true },
      { ip, json: true },
    );
    expect(res.json().status).toBe('SUCCEED');
    const s = res.json().result;
    const m = (await get(t.app, 'member/member/getMember', {}, auth(s))).json().result;
    expect(m).toMatchObject({ phone: '13900000001', areaCode: '86', mail: '' });
    const login = await post(t.app, 'member/member/login', { account: '13900000001', password: 'Phone1234' }, { ip });
    expect(login.json().result.userId).toBe(s.userId);
    // The same digits are a valid Brazilian mobile number, and another account; with +1 they are no number at all.
    const wrongArea = await post(t.app, 'member/member/login', { account: '13900000001', areaCode: '55', password: 'Phone1234' }, { ip });
    expect(wrongArea.json().errorCode).toBe('login_failed');
    const noNumber = await post(t.app, 'member/member/login', { account: '13900000001', areaCode: '1', password: 'Phone1234' }, { ip });
    expect(noNumber.json().errorCode).toBe('phone_invalid');
  });

  it('links an invitation code to the inviter and gives every user a distinct welCode', async () => {
    const inviter = await registerEmail(t, 'inviter@example.com');
    const wel = (await get(t.app, 'member/member/code', { memberId: inviter.userId }, auth(inviter))).json().result.welCode as string;
    expect(wel).toMatch(/^[A-Z2-9]{8}$/);
    const invitee = await registerEmail(t, 'invitee@example.com', 'Secret123', { invitationCode: wel.toLowerCase() });
    const row = (
      await t.ctx.db
        .select()
        .from(users)
        .where(eq(users.id, BigInt(invitee.userId)))
    )[0]!;
    expect(row.invitedBy).toBe(BigInt(inviter.userId));
    const wel2 = (await get(t.app, 'member/member/code', {}, auth(invitee))).json().result.welCode;
    expect(wel2).not.toBe(wel);
  });

  describe.each(['zh', 'en'] as const)('rules in %s', (lang) => {
    const base = (mail: string, code: string) => ({
      registerType: 'EMAIL',
      mail,
      code,
      password: 'Secret123',
      confirmPassword: 'Secret123',
      agreement: 'true',
    });

    it('refuses bad e-mail and phone formats', async () => {
      expectFail(await post(t.app, 'member/member/register', { ...base('bad@', '123456') }, { lang }), 'email_invalid', lang, 400, 'mail');
      expectFail(await post(t.app, 'member/member/register', { ...base('', '123456'), mail: undefined }, { lang }), 'email_invalid', lang, 400, 'mail');
      expectFail(
        await post(t.app, 'member/member/register', { ...base('', '123456'), registerType: 'PHONE', mail: undefined, phone: '12-34' }, { lang }),
        'phone_invalid',
        lang,
        400,
        'phone',
      );
    });

    it('refuses passwords that are short, long or only digits, and a mismatched confirmation', async () => {
      const mail = `rules-${lang}@example.com`;
      for (const pw of ['Short1', '12345678', 'A'.repeat(21)]) {
        expectFail(
          await post(t.app, 'member/member/register', { ...base(mail, '123456'), password: pw, confirmPassword: pw }, { lang }),
          'password_invalid',
          lang,
          400,
          'password',
        );
      }
      expectFail(
        await post(t.app, 'member/member/register', { ...base(mail, '123456'), confirmPassword: 'Secret124' }, { lang }),
        'password_mismatch',
        lang,
        400,
        'confirmPassword',
      );
    });

    it('refuses a missing or false agreement and an unknown invitation code', async () => {
      const mail = `rules-${lang}@example.com`;
      expectFail(
        await post(t.app, 'member/member/register', { ...base(mail, '123456'), agreement: 'false' }, { lang }),
        'agreement_required',
        lang,
        400,
        'agreement',
      );
      expectFail(
        await post(t.app, 'member/member/register', { ...base(mail, '123456'), agreement: undefined }, { lang }),
        'agreement_required',
        lang,
        400,
        'agreement',
      );
      expectFail(
        await post(t.app, 'member/member/register', { ...base(mail, '123456'), invitationCode: 'NOSUCH99' }, { lang }),
        'invitation_invalid',
        lang,
        400,
        'invitationCode',
      );
    });

    it('refuses a wrong, malformed or expired code, and retires a code after 5 wrong guesses', async () => {
      const mail = `code-${lang}@example.com`;
      const code = await sendAndReadCode(t, mail, 'REGISTER', { ip: randomIp() });
      const wrong = code === '000000' ? '000001' : '000000';
      expectFail(await post(t.app, 'member/member/register', { ...base(mail, 'abc') }, { lang }), 'code_invalid', lang, 400, 'code');
      for (let i = 0; i < 5; i++)
        expectFail(await post(t.app, 'member/member/register', { ...base(mail, wrong) }, { lang }), 'code_invalid', lang, 400, 'code');
      // The right code no longer works: it was retired.
      expectFail(await post(t.app, 'member/member/register', { ...base(mail, code) }, { lang }), 'code_invalid', lang, 400, 'code');
      await allowResend(t);
      const code2 = await sendAndReadCode(t, mail, 'REGISTER', { ip: randomIp() });
      await t.ctx.db
        .update(verificationCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(verificationCodes.account, mail));
      expectFail(await post(t.app, 'member/member/register', { ...base(mail, code2) }, { lang }), 'code_invalid', lang, 400, 'code');
    });

    it('answers a wrong code with code_invalid for a taken account as for a free one; account_exists only after a valid code', async () => {
      const mail = `taken-${lang}@example.com`;
      await registerEmail(t, mail);
      const taken = await post(t.app, 'member/member/register', { ...base(mail.toUpperCase(), '123456') }, { lang });
      const free = await post(t.app, 'member/member/register', { ...base(`free-${lang}@example.com`, '123456') }, { lang });
      expectFail(taken, 'code_invalid', lang, 400, 'code');
      expect(taken.json()).toEqual(free.json());
      // A code sent while the address was free, used after someone else registered it: account_exists, which tells
      // the code's owner nothing they could not know.
      const raced = `raced-${lang}@example.com`;
      const code = await sendAndReadCode(t, raced, 'REGISTER', { ip: randomIp() });
      await t.ctx.members.ensureEmailUser(raced, 'Secret123', '');
      expectFail(await post(t.app, 'member/member/register', { ...base(raced, code) }, { lang }), 'account_exists', lang);
    });
  });

  it('accepts agreement "1", and a REGISTER code only for the account it was sent to', async () => {
    const ip = randomIp();
    const code = await sendAndReadCode(t, 'once@example.com', 'REGISTER', { ip });
    const body = { registerType: 'EMAIL', mail: 'other@example.com', code, password: 'Secret123', confirmPassword: 'Secret123', agreement: '1' };
    expect((await post(t.app, 'member/member/register', body, { ip })).json().errorCode).toBe('code_invalid');
    expect((await post(t.app, 'member/member/register', { ...body, mail: 'once@example.com' }, { ip })).json().status).toBe('SUCCEED');
  });
});

describe('login, sessions and logout', () => {
  it('logs in, and answers 401 unauthorized without credentials and 401 SYS.0015 for bad ones', async () => {
    await registerEmail(t, 'bob@example.com', 'BobSecret1');
    const ip = randomIp();
    const res = await post(t.app, 'member/member/login', { account: 'BOB@example.com', password: 'BobSecret1' }, { ip });
    expect(res.json().status).toBe('SUCCEED');
    const s = res.json().result;
    expect((await get(t.app, 'member/member/getMember', {}, auth(s))).statusCode).toBe(200);

    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'en' }), 'unauthorized', 'en', 401);
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'zh', headers: { token: s.token } }), 'unauthorized', 'zh', 401);
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'en', headers: { token: 'x'.repeat(43), userId: s.userId } }), 'SYS.0015', 'en', 401);
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'zh', headers: { token: s.token, userId: 'abc' } }), 'SYS.0015', 'zh', 401);
    const alice = (await t.ctx.db.select().from(users).where(eq(users.mail, 'alice@example.com')))[0]!;
    expectFail(
      await get(t.app, 'member/member/getMember', {}, { lang: 'en', headers: { token: s.token, userId: alice.id.toString() } }),
      'SYS.0015',
      'en',
      401,
    );

    // Expired session.
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256Hex(s.token)));
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'en', ...auth(s) }), 'SYS.0015', 'en', 401);
  });

  it('logout revokes only that token', async () => {
    const ip = randomIp();
    const s1 = (await post(t.app, 'member/member/login', { account: 'bob@example.com', password: 'BobSecret1' }, { ip })).json().result;
    const s2 = (await post(t.app, 'member/member/login', { account: 'bob@example.com', password: 'BobSecret1' }, { ip })).json().result;
    // Both sessions were just used, so they sit in the service's session cache: logout must evict at once.
    expect((await get(t.app, 'member/member/getMember', {}, auth(s1))).statusCode).toBe(200);
    expect((await get(t.app, 'member/member/getMember', {}, auth(s2))).statusCode).toBe(200);
    const out = await post(t.app, 'member/member/logout', {}, auth(s1));
    expect(out.json()).toEqual({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null });
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'zh', ...auth(s1) }), 'SYS.0015', 'zh', 401);
    expectFail(await post(t.app, 'member/member/logout', {}, { lang: 'en', ...auth(s1) }), 'SYS.0015', 'en', 401);
    expect((await get(t.app, 'member/member/getMember', {}, auth(s2))).statusCode).toBe(200);
  });

  it('fails wrong passwords, asks for the puzzle after 3 failures and locks after 5', async () => {
    await registerEmail(t, 'carol@example.com', 'CarolPass1');
    const ip = randomIp();
    const bad = { account: 'carol@example.com', password: 'WrongPass1' };
    for (let i = 0; i < 3; i++) expectFail(await post(t.app, 'member/member/login', bad, { ip, lang: 'en' }), 'login_failed', 'en');
    // 4th attempt: the puzzle is required, even with the right password.
    expectFail(await post(t.app, 'member/member/login', { ...bad, password: 'CarolPass1' }, { ip, lang: 'zh' }), 'captcha_required', 'zh');
    expectFail(await post(t.app, 'member/member/login', { ...bad, ...(await passPuzzle(t)) }, { ip, lang: 'en' }), 'login_failed', 'en');
    expectFail(await post(t.app, 'member/member/login', { ...bad, ...(await passPuzzle(t)) }, { ip, lang: 'en' }), 'login_failed', 'en');
    // 5 failures: locked, even with the right password and a puzzle.
    expectFail(
      await post(t.app, 'member/member/login', { ...bad, password: 'CarolPass1', ...(await passPuzzle(t)) }, { ip, lang: 'en' }),
      'login_locked',
      'en',
      429,
    );
    expectFail(await post(t.app, 'member/member/login', { ...bad, password: 'CarolPass1' }, { ip: randomIp(), lang: 'zh' }), 'login_locked', 'zh', 429);
  });

  it('clears the failure count after a success', async () => {
    await registerEmail(t, 'dave@example.com', 'DavePass1');
    const ip = randomIp();
    for (let i = 0; i < 2; i++) await post(t.app, 'member/member/login', { account: 'dave@example.com', password: 'nope-nope' }, { ip });
    expect((await post(t.app, 'member/member/login', { account: 'dave@example.com', password: 'DavePass1' }, { ip })).json().status).toBe('SUCCEED');
    for (let i = 0; i < 3; i++)
      expect((await post(t.app, 'member/member/login', { account: 'dave@example.com', password: 'nope-nope' }, { ip })).json().errorCode).toBe('login_failed');
  });

  it('asks every login from an IP for the puzzle after 20 failures across accounts, without locking anyone out', async () => {
    const ip = randomIp();
    for (let i = 0; i < 20; i++) {
      expect((await post(t.app, 'member/member/login', { account: `ghost${i}@example.com`, password: 'whatever1' }, { ip })).json().errorCode).toBe(
        'login_failed',
      );
    }
    expectFail(await post(t.app, 'member/member/login', { account: 'bob@example.com', password: 'BobSecret1' }, { ip, lang: 'en' }), 'captcha_required', 'en');
    expect(
      (await post(t.app, 'member/member/login', { account: 'bob@example.com', password: 'BobSecret1', ...(await passPuzzle(t, ip)) }, { ip })).json().status,
    ).toBe('SUCCEED');
    expect((await post(t.app, 'member/member/login', { account: 'bob@example.com', password: 'BobSecret1' }, { ip: randomIp() })).json().status).toBe(
      'SUCCEED',
    );
  });
});

describe('forgetPassword', () => {
  it('resets the password with a FORGET code and revokes every session', async () => {
    const s = await registerEmail(t, 'erin@example.com', 'ErinPass1');
    await allowResend(t);
    const ip = randomIp();
    const code = await sendAndReadCode(t, 'erin@example.com', 'FORGET', { ip });
    expectFail(
      await post(
        t.app,
        'member/member/forgetPassword',
        { account: 'erin@example.com', code, password: '87654321', confirmPassword: '87654321' },
        { ip, lang: 'en' },
      ),
      'password_invalid',
      'en',
      400,
      'password',
    );
    expectFail(
      await post(
        t.app,
        'member/member/forgetPassword',
        { account: 'erin@example.com', code, password: 'NewPass12', confirmPassword: 'NewPass13' },
        { ip, lang: 'zh' },
      ),
      'password_mismatch',
      'zh',
      400,
      'confirmPassword',
    );
    // Someone else's code for an unknown account: code_invalid, as for any wrong code (no account_not_found).
    expectFail(
      await post(
        t.app,
        'member/member/forgetPassword',
        { account: 'nobody@example.com', code, password: 'NewPass12', confirmPassword: 'NewPass12' },
        { ip, lang: 'en' },
      ),
      'code_invalid',
      'en',
      400,
      'code',
    );
    const ok = await post(
      t.app,
      'member/member/forgetPassword',
      { account: 'erin@example.com', code, password: 'NewPass12', confirmPassword: 'NewPass12' },
      { ip },
    );
    expect(ok.json().status).toBe('SUCCEED');
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'en', ...auth(s) }), 'SYS.0015', 'en', 401);
    expect((await post(t.app, 'member/member/login', { account: 'erin@example.com', password: 'ErinPass1' }, { ip })).json().errorCode).toBe('login_failed');
    expect((await post(t.app, 'member/member/login', { account: 'erin@example.com', password: 'NewPass12' }, { ip })).json().status).toBe('SUCCEED');
    // The code was used.
    const again = await post(
      t.app,
      'member/member/forgetPassword',
      { account: 'erin@example.com', code, password: 'NewPass99', confirmPassword: 'NewPass99' },
      { ip },
    );
    expect(again.json().errorCode).toBe('code_invalid');
  });
});

describe('register and forgetPassword tell nothing about accounts', () => {
  /** Median of `n` runs of `f`, in ms. */
  async function medianMs(n: number, f: () => Promise<unknown>): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await f();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
  }

  it.each(['zh', 'en'] as const)('answers a wrong code alike for existing and unknown accounts, in the same time (%s)', async (lang) => {
    const existing = `exists-${lang}@example.com`;
    await registerEmail(t, existing);
    const unknown = `nobody-${lang}@example.com`;
    const reg = (mail: string) =>
      post(
        t.app,
        'member/member/register',
        { registerType: 'EMAIL', mail, code: '000000', password: 'Secret123', confirmPassword: 'Secret123', agreement: 'true' },
        { lang, ip: randomIp() },
      );
    const forget = (account: string) =>
      post(t.app, 'member/member/forgetPassword', { account, code: '000000', password: 'Secret123', confirmPassword: 'Secret123' }, { lang, ip: randomIp() });
    for (const [a, b] of [
      [await reg(existing), await reg(unknown)],
      [await forget(existing), await forget(unknown)],
    ]) {
      expectFail(a!, 'code_invalid', lang, 400, 'code');
      expect(a!.json()).toEqual(b!.json());
      expect(a!.statusCode).toBe(b!.statusCode);
    }
    // The same once both asked for a FORGET code (the unknown account got none, but has a live code row like the
    // existing one, so a wrong guess costs the same work).
    await allowResend(t);
    await sendAndReadCode(t, existing, 'FORGET', { ip: randomIp() });
    const asked = await post(t.app, 'data/sms/sendCode', { account: unknown, type: 'FORGET', ...(await passPuzzle(t)) }, { ip: randomIp() });
    expect(asked.json().status).toBe('SUCCEED');
    expect((await forget(existing)).json()).toEqual((await forget(unknown)).json());
    // Timing: both paths stop at the code check (no password hashing before it). Interleaved medians.
    const medians = { existing: 0, unknown: 0 };
    for (let round = 0; round < 3; round++) {
      medians.existing += await medianMs(5, () => forget(existing));
      medians.unknown += await medianMs(5, () => forget(unknown));
    }
    console.log(
      `forgetPassword with a wrong code (${lang}): median ${(medians.existing / 3).toFixed(1)} ms for an existing account, ${(medians.unknown / 3).toFixed(1)} ms for an unknown one`,
    );
    expect(Math.abs(medians.existing - medians.unknown) / 3).toBeLessThan(Math.max(25, medians.unknown / 3));
  });
});

describe('profile, favourites and privacy', () => {
  let a: { token: string; userId: string };
  let b: { token: string; userId: string };
  beforeAll(async () => {
    a = await registerEmail(t, 'frank@example.com');
    b = await registerEmail(t, 'grace@example.com');
  });

  it('sets the nickname once', async () => {
    expectFail(
      await post(t.app, 'member/member/setNickName', { member: a.userId, nickName: '' }, { lang: 'zh', ...auth(a) }),
      'nickname_required',
      'zh',
      400,
      'nickName',
    );
    expectFail(await post(t.app, 'member/member/setNickName', { nickName: '   ' }, { lang: 'en', ...auth(a) }), 'nickname_required', 'en', 400, 'nickName');
    const ok = await post(t.app, 'member/member/setNickName', { member: a.userId, nickName: ' Frank ' }, auth(a));
    expect(ok.json()).toEqual({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null });
    expect((await get(t.app, 'member/member/getMember', {}, auth(a))).json().result.nickName).toBe('Frank');
    expect(await t.ctx.members.nickName(a.userId)).toBe('Frank');
    expectFail(await post(t.app, 'member/member/setNickName', { nickName: 'Again' }, { lang: 'en', ...auth(a) }), 'nickname_already_set', 'en');
    expectFail(await post(t.app, 'member/member/setNickName', { nickName: 'Again' }, { lang: 'zh', ...auth(a) }), 'nickname_already_set', 'zh');
  });

  it('adds, lists and cancels favourites idempotently, per market type', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await post(t.app, 'member/member/addFavorite', { pairsName: 'BTC/USDT', type: 'SPOT' }, auth(a))).json().status).toBe('SUCCEED');
    }
    await post(t.app, 'member/member/addFavorite', { pairsName: 'ETH/USDT' }, auth(a));
    await post(t.app, 'member/member/addFavorite', { pairsName: 'BTC/USDT', type: 'CONTRACT' }, { json: true, ...auth(a) });
    const all = (await get(t.app, 'member/member/getFavorites', {}, auth(a))).json().result;
    expect(all).toEqual([
      { pairsName: 'BTC/USDT', type: 'SPOT' },
      { pairsName: 'ETH/USDT', type: 'SPOT' },
      { pairsName: 'BTC/USDT', type: 'CONTRACT' },
    ]);
    expect((await get(t.app, 'member/member/getFavorites', { type: 'CONTRACT' }, auth(a))).json().result).toEqual([
      { pairsName: 'BTC/USDT', type: 'CONTRACT' },
    ]);
    for (let i = 0; i < 2; i++) expect((await post(t.app, 'member/member/cancelFavorite', { pairsName: 'BTC/USDT' }, auth(a))).json().status).toBe('SUCCEED');
    expect((await post(t.app, 'member/member/getFavorites', {}, auth(a))).json().result).toEqual([
      { pairsName: 'ETH/USDT', type: 'SPOT' },
      { pairsName: 'BTC/USDT', type: 'CONTRACT' },
    ]);
    expect((await post(t.app, 'member/member/addFavorite', { pairsName: 'btc-usdt' }, auth(a))).json().errorCode).toBe('validation_failed');
    expectFail(await post(t.app, 'member/member/addFavorite', { pairsName: 'BTC/USDT' }, { lang: 'en' }), 'unauthorized', 'en', 401);
  });

  it("does not show one user's data to another", async () => {
    expectFail(await get(t.app, 'member/member/getMember', { member: a.userId }, { lang: 'en', ...auth(b) }), 'forbidden', 'en', 403);
    expectFail(await get(t.app, 'member/member/code', { memberId: a.userId }, { lang: 'zh', ...auth(b) }), 'forbidden', 'zh', 403);
    expectFail(await post(t.app, 'member/member/setNickName', { member: a.userId, nickName: 'Evil' }, { lang: 'en', ...auth(b) }), 'forbidden', 'en', 403);
    expect((await get(t.app, 'member/member/getFavorites', {}, auth(b))).json().result).toEqual([]);
    const mine = (await get(t.app, 'member/member/getMember', {}, auth(b))).json().result;
    expect(mine).toMatchObject({ userId: b.userId, mail: 'grace@example.com' });
    // b's token with a's id is no session at all.
    expectFail(await get(t.app, 'member/member/getMember', {}, { lang: 'en', headers: { token: b.token, userId: a.userId } }), 'SYS.0015', 'en', 401);
  });
});

describe('demo account', () => {
  it('is created once with the documented credentials and nickname, firing the hook once', async () => {
    const before = registered.length;
    const creds = await ensureDemoAccount(t.ctx);
    expect(creds).toEqual({ account: DEMO_ACCOUNT, password: DEMO_PASSWORD });
    expect(await ensureDemoAccount(t.ctx)).toEqual(creds);
    expect(registered.length).toBe(before + 1);
    const s = (await post(t.app, 'member/member/login', { account: DEMO_ACCOUNT, password: DEMO_PASSWORD }, { ip: randomIp() })).json().result;
    expect(s.userId).toBe(registered[registered.length - 1]);
    expect((await get(t.app, 'member/member/getMember', {}, auth(s))).json().result).toMatchObject({ nickName: 'Demo', mail: DEMO_ACCOUNT });
    expect(await ensureDemoAccount({ config: { ...t.ctx.config, demoMode: false }, members: t.ctx.members })).toBeNull();
  });
});

describe('OpenAPI', () => {
  it('documents the member and sms routes with tags and summaries; the demo and console routes only internally', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    expect(doc.paths['/api/member/member/register'].post.tags).toEqual(['member']);
    expect(doc.paths['/api/member/member/register'].post.summary).toMatch(/Register/);
    expect(doc.paths['/api/data/sms/geetestVerify'].post.tags).toEqual(['sms']);
    expect(doc.paths['/api/data/sms/sendCode'].post.requestBody).toBeDefined();
    expect(Object.keys(doc.paths['/api/member/member/getFavorites']).sort()).toEqual(['get', 'post']);
    // the public document lists no console or demo route; the app's own (app.swagger()) still has them
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/admin/') || p.startsWith('/api/demo/'))).toEqual([]);
    const full = t.app.swagger() as { paths: Record<string, { get?: { tags?: string[] } }> };
    expect(full.paths['/api/demo/outbox']!.get!.tags).toEqual(['demo']);
    expect(Object.keys(full.paths).some((p) => p.startsWith('/api/admin/'))).toBe(true);
  });
});
