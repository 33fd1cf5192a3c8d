/**
 * Proves that the login limits hold under bursts, through app.inject on PGlite (or
 * PostgreSQL with DATABASE_URL): bursts of parallel logins are counted and checked atomically, so no burst gets
 * more passwords checked than the account's limit (we count argon2 verifications with a spy and the failure rows),
 * the right password inside a burst gets no session once the limit is reached, a burst cannot skip the puzzle that
 * 3 failures require, and one IP's failures across many accounts slow that IP down (the puzzle) without locking out
 * another user's correct login from it. Each burst prints what it measured.
 */
import argon2 from 'argon2';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers';
import { loginFailures } from './member.tables';
import { makeMemberTestApp, post, randomIp } from './member-test-app';
import { createMemberRepository } from './member.repository';
import { LOGIN_CAPTCHA_AFTER, LOGIN_IP_CAPTCHA_AFTER, LOGIN_IP_LOCK_AFTER, LOGIN_LOCK_AFTER, LOGIN_WINDOW_MS } from './member.service';

let t: TestApp;
beforeAll(async () => {
  t = await makeMemberTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A puzzle pass obtained through the service (captcha test mode), so that bursts do not spend the HTTP budget. */
async function pass(): Promise<Record<string, string>> {
  const c = await t.ctx.members.captcha.issue('burst');
  return { ...(await t.ctx.members.captcha.verify(c.challenge, 0)) };
}

/** Counts argon2 verifications from now on. */
function countVerifications(): { readonly n: number } {
  const spy = vi.spyOn(argon2, 'verify');
  return {
    get n() {
      return spy.mock.calls.length;
    },
  };
}

async function failureRows(account: string): Promise<number> {
  const rows = await t.ctx.db.select({ n: count() }).from(loginFailures).where(eq(loginFailures.account, account));
  return Number(rows[0]?.n ?? 0);
}

/** Sends all `bodies` to login at once (each from `ip(i)`); the answers' errorCodes ('0' = session issued). */
async function burst(bodies: Array<Record<string, string>>, ip: (i: number) => string): Promise<string[]> {
  const res = await Promise.all(bodies.map((b, i) => post(t.app, 'member/member/login', b, { ip: ip(i) })));
  return res.map((r) => r.json().errorCode as string);
}

function tally(codes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
}

describe('login bursts', () => {
  it('checks at most the limit of passwords in a burst of 50 wrong ones (with puzzle passes, from 50 IPs)', async () => {
    const mail = 'burst50@example.com';
    await t.ctx.members.ensureEmailUser(mail, 'RightPass1', '');
    const passes = await Promise.all(Array.from({ length: 50 }, () => pass()));
    const v = countVerifications();
    const codes = await burst(
      passes.map((p) => ({ account: mail, password: 'WrongPass1', ...p })),
      () => randomIp(),
    );
    const rows = await failureRows(mail);
    console.log(`[burst of 50 wrong passwords] argon2 verifications ${v.n}, failure rows ${rows}, answers ${JSON.stringify(tally(codes))}`);
    expect(v.n).toBeLessThanOrEqual(LOGIN_LOCK_AFTER);
    expect(rows).toBeLessThanOrEqual(LOGIN_LOCK_AFTER);
    expect(codes.filter((c) => c === 'login_failed').length).toBe(v.n);
    expect(codes.every((c) => c === 'login_failed' || c === 'login_locked')).toBe(true);
    // Locked afterwards, even with the right password.
    const after = await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1', ...(await pass()) }, { ip: randomIp() });
    expect(after.json().errorCode).toBe('login_locked');
  });

  it('a burst of 12 with the right password 9th: at most the limit of passwords checked, no session once it is reached', async () => {
    const mail = 'burst12@example.com';
    await t.ctx.members.ensureEmailUser(mail, 'RightPass1', '');
    const passes = await Promise.all(Array.from({ length: 12 }, () => pass()));
    const ip = randomIp();
    const v = countVerifications();
    const codes = await burst(
      passes.map((p, i) => ({ account: mail, password: i === 8 ? 'RightPass1' : 'WrongPass1', ...p })),
      () => ip,
    );
    console.log(`[burst of 12, right password 9th] argon2 verifications ${v.n}, 9th answered ${codes[8]}, answers ${JSON.stringify(tally(codes))}`);
    expect(v.n).toBeLessThanOrEqual(LOGIN_LOCK_AFTER);
    // The requests run concurrently, so the server may take the 9th among the first few (PostgreSQL's pool does,
    // PGlite's single connection rarely): then it logs in, as it would have before any failure. What must never
    // happen is a session after the limit of failures: every answer but the locked ones is one checked password.
    const t12 = tally(codes);
    expect((t12.login_failed ?? 0) + (t12['0'] ?? 0)).toBe(v.n);
    if (codes[8] === '0') expect(t12.login_failed ?? 0).toBeLessThan(LOGIN_LOCK_AFTER);
    else expect(codes[8]).toBe('login_locked');
    expect(t12['0'] ?? 0).toBeLessThanOrEqual(1);
  });

  it('cannot skip the puzzle: after 2 failures a burst of 20 without passes gets one password checked', async () => {
    const mail = 'burstpuzzle@example.com';
    await t.ctx.members.ensureEmailUser(mail, 'RightPass1', '');
    const ip = randomIp();
    for (let i = 0; i < LOGIN_CAPTCHA_AFTER - 1; i++) {
      expect((await post(t.app, 'member/member/login', { account: mail, password: 'WrongPass1' }, { ip })).json().errorCode).toBe('login_failed');
    }
    const v = countVerifications();
    const codes = await burst(
      Array.from({ length: 20 }, (_, i) => ({ account: mail, password: i === 9 ? 'RightPass1' : 'WrongPass1' })),
      () => ip,
    );
    console.log(
      `[burst of 20 without puzzle after 2 failures] argon2 verifications ${v.n}, right password (10th) answered ${codes[9]}, answers ${JSON.stringify(tally(codes))}`,
    );
    expect(v.n).toBe(1);
    expect(codes[9]).not.toBe('0');
    expect(codes.filter((c) => c === 'login_failed').length).toBe(1);
    expect(codes.every((c) => c === 'login_failed' || c === 'captcha_required' || c === 'login_locked')).toBe(true);
    // The limits are as before for a patient user: the puzzle now, then the lock after 5 failures.
    expect((await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1' }, { ip })).json().errorCode).toBe('captcha_required');
    expect((await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1', ...(await pass()) }, { ip })).json().status).toBe('SUCCEED');
  });
});

describe('one IP, many accounts', () => {
  it("asks for the puzzle after many failures from an IP, and never locks out another user's correct login from it", async () => {
    const mail = 'proxyuser@example.com';
    await t.ctx.members.ensureEmailUser(mail, 'RightPass1', '');
    const proxy = randomIp();
    const spray = LOGIN_IP_CAPTCHA_AFTER + 5;
    for (let i = 0; i < spray; i++) {
      const res = await post(t.app, 'member/member/login', { account: `ghost${i}@example.com`, password: 'whatever1', ...(await pass()) }, { ip: proxy });
      expect(res.json().errorCode).toBe('login_failed');
    }
    const without = await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1' }, { ip: proxy });
    const withPass = await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1', ...(await pass()) }, { ip: proxy });
    console.log(
      `[${spray} failures from one IP across ${spray} accounts] another user's correct login from it: without puzzle ${without.json().errorCode}, with puzzle ${withPass.json().errorCode}`,
    );
    expect(without.json().errorCode).toBe('captcha_required');
    expect(withPass.json().status).toBe('SUCCEED');
    // A fresh IP needs no puzzle.
    expect((await post(t.app, 'member/member/login', { account: mail, password: 'RightPass1' }, { ip: randomIp() })).json().status).toBe('SUCCEED');
  });

  it("forgets an IP's failures a window after the last one, however many logins from it succeed meanwhile", async () => {
    // As the login counts them: each attempt counted while in flight (not extending the window), a failure then
    // extends it, a success gives its attempt back. Times are minutes after t0, an hour ago.
    const repo = createMemberRepository(t.ctx.db);
    const ip = { account: '', ip: randomIp() };
    const t0 = Date.now() - 3_600_000;
    const at = (min: number) => new Date(t0 + min * 60_000);
    const since = (min: number) => new Date(t0 + min * 60_000 - LOGIN_WINDOW_MS);
    for (let i = 0; i < LOGIN_IP_CAPTCHA_AFTER; i++) {
      await repo.addLoginAttempts(ip, 1, since(0), at(0), false);
      await repo.addLoginAttempts(ip, 0, since(0), at(0));
    }
    // Successful logins from the same IP at minutes 5, 10 and 14: the failures still count (the puzzle is asked).
    for (const m of [5, 10, 14]) {
      expect(await repo.addLoginAttempts(ip, 1, since(m), at(m), false)).toBe(LOGIN_IP_CAPTCHA_AFTER + 1);
      await repo.releaseLoginAttempt(ip);
    }
    // Minute 16: the last failure is older than the window; the successes did not keep it alive.
    expect(await repo.addLoginAttempts(ip, 1, since(16), at(16), false)).toBe(1);
    // A failure at minute 17 and another at minute 31: the window runs from the last failure, so both count.
    await repo.addLoginAttempts(ip, 0, since(17), at(17));
    expect(await repo.addLoginAttempts(ip, 1, since(31), at(31), false)).toBe(2);
  });

  it('locks, beyond the high per-IP threshold, only the accounts that failed from that IP', async () => {
    const victim = 'proxyvictim@example.com';
    const guesser = 'proxyguess@example.com';
    await t.ctx.members.ensureEmailUser(victim, 'RightPass1', '');
    await t.ctx.members.ensureEmailUser(guesser, 'RightPass1', '');
    const proxy = randomIp();
    // One real failure of `guesser` from the proxy, then the proxy's counter is brought to the lock threshold
    // (LOGIN_IP_LOCK_AFTER failures would take minutes of argon2 through HTTP).
    expect((await post(t.app, 'member/member/login', { account: guesser, password: 'WrongPass1' }, { ip: proxy })).json().errorCode).toBe('login_failed');
    await createMemberRepository(t.ctx.db).addLoginAttempts({ account: '', ip: proxy }, LOGIN_IP_LOCK_AFTER - 1, new Date(Date.now() - 60_000), new Date());
    const guess = await post(t.app, 'member/member/login', { account: guesser, password: 'RightPass1', ...(await pass()) }, { ip: proxy });
    const other = await post(t.app, 'member/member/login', { account: victim, password: 'RightPass1', ...(await pass()) }, { ip: proxy });
    console.log(
      `[${LOGIN_IP_LOCK_AFTER} failures from one IP] an account that failed from it: ${guess.json().errorCode}; one that did not: ${other.json().errorCode}`,
    );
    expect(guess.json().errorCode).toBe('login_locked');
    expect(other.json().status).toBe('SUCCEED');
    // From anywhere else the account that failed once still logs in.
    expect((await post(t.app, 'member/member/login', { account: guesser, password: 'RightPass1' }, { ip: randomIp() })).json().status).toBe('SUCCEED');
  });
});
