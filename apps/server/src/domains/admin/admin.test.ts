/**
 * Proves the operator console API through app.inject (PGlite, or PostgreSQL with DATABASE_URL): login with e-mail,
 * password and a TOTP code computed by otplib (wrong password, wrong code, a replayed code and the lockout refused, in
 * zh and en), that a user's token never opens the console, role enforcement per route (support, compliance, finance,
 * admin), freeze and unfreeze through the engine (the frozen user still logs in and reads, setEntrust answers
 * account_frozen, after unfreezing the order is accepted), an audit row with before and after for every action (the
 * engine's written by the projector with the journal position), the audit log's filters and paging, logout revoking
 * that session only, the 30-minute idle and 8-hour limits, operator management (create, log in, disable, TOTP reset),
 * user lookup by UID, e-mail and phone, and the KYC routes without a KYC service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { errorText, type ErrorCode } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { ensureMarket, TEST_BTC_USDT } from '../../platform/engine-host/test-fixtures';
import { secretBoxFromConfig } from '../../platform/shared/secret-box';
import { ADMIN_IDLE_MS, ADMIN_MAX_MS, createAdminService } from './admin.service';
import { DEMO_OPERATOR_EMAIL, DEMO_OPERATOR_PASSWORD, DEMO_OPERATOR_TOTP, ensureDemoOperator } from './demo-operator';
import { totpAt } from './totp';

let t: TestApp;
const ALICE = 'alice@admin.test';
const BOB = 'bob@admin.test';
const PASSWORD = 'secret-pass-1';
const MARKET = { ...TEST_BTC_USDT, symbol: 'TADM/USDT', base: 'TADM', minNotional: 0n };

interface Env {
  status: string;
  errorCode: string;
  errorMessage: string;
  result: unknown;
}

/** A TOTP code of `secret` for `offsetSteps` steps from now (each code is accepted once: logins use fresh steps). */
async function code(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

/** Creates an operator of `role` through the service (as the command line does) and logs it in; its token. */
async function operator(role: 'support' | 'compliance' | 'finance' | 'admin', email = `${role}-${Math.random().toString(36).slice(2, 8)}@ops.test`) {
  const c = await t.ctx.admin.createOperator(null, { email, name: `${role} op`, role });
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { email, password: c.password, totp: await code(c.totpSecret) } });
  const body = res.json<Env & { result: { token: string } }>();
  expect(body.status, body.errorMessage).toBe('SUCCEED');
  return { ...c, token: body.result.token, id: c.operator.id };
}

function get(token: string, url: string, lang = 'en') {
  return t.app.inject({ method: 'GET', url, headers: { 'x-admin-token': token, lang } });
}
function post(token: string, url: string, payload: Record<string, string>, lang = 'en') {
  return t.app.inject({ method: 'POST', url, headers: { 'x-admin-token': token, lang }, payload });
}

function expectFail(res: { statusCode: number; json(): unknown }, code: ErrorCode, status: number, lang: 'zh' | 'en' = 'en'): void {
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: code, errorMessage: errorText(code, lang), result: null });
  expect(res.statusCode).toBe(status);
}

async function userLogin(mail: string): Promise<{ userId: string; token: string }> {
  await t.ctx.members.ensureEmailUser(mail, PASSWORD, mail.split('@')[0]!);
  const res = await t.app.inject({ method: 'POST', url: '/api/member/member/login', payload: { account: mail, password: PASSWORD } });
  return res.json<{ result: { userId: string; token: string } }>().result;
}

async function auditRows(query: string, token: string) {
  const res = await get(token, `/api/admin/audit/list?${query}`);
  return res.json<{ result: { total: number; rows: Array<Record<string, unknown>> } }>().result;
}

let alice: { userId: string; token: string };
let bob: { userId: string; token: string };
let admin: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  await ensureMarket(t.ctx.host, MARKET);
  alice = await userLogin(ALICE);
  bob = await userLogin(BOB);
  admin = await operator('admin');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('console login', () => {
  it('needs the password and a fresh TOTP code; failures are audited, then locked', async () => {
    const email = 'login@ops.test';
    const c = await t.ctx.admin.createOperator(null, { email, name: 'Login', role: 'support' });
    const login = (password: string, totp: string, lang: 'zh' | 'en' = 'en') =>
      t.app.inject({ method: 'POST', url: '/api/admin/auth/login', headers: { lang }, payload: { email, password, totp } });
    expectFail(await login('wrong-password', await code(c.totpSecret), 'zh'), 'admin_login_failed', 400, 'zh');
    const wrongTotp = String((Number(await code(c.totpSecret)) + 1) % 1_000_000).padStart(6, '0');
    expectFail(await login(c.password, wrongTotp), 'admin_login_failed', 400);
    const good = await code(c.totpSecret);
    const ok = await login(c.password, good);
    expect(ok.json<Env>().status).toBe('SUCCEED');
    const session = ok.json<{ result: { token: string; operator: { email: string; role: string } } }>().result;
    expect(session.operator).toMatchObject({ email, role: 'support' });
    const me = await get(session.token, '/api/admin/auth/me');
    expect(me.json<{ result: { email: string } }>().result.email).toBe(email);
    // The same code again (a watched or replayed code) is refused.
    expectFail(await login(c.password, good), 'admin_login_failed', 400);
    const rows = await auditRows(`operatorId=${c.operator.id}`, admin.token);
    expect(rows.rows.map((r) => r.action)).toEqual(['login_failed', 'login', 'login_failed', 'login_failed']);
    expect(rows.rows[1]).toMatchObject({ operatorEmail: email, ip: '127.0.0.1' });
    // A success cleared the earlier failures; four more after the replay make five within the window: locked, even
    // with the right password and a new code.
    for (let i = 0; i < 4; i++) expectFail(await login('wrong-password', await code(c.totpSecret, 1)), 'admin_login_failed', 400);
    expectFail(await login(c.password, await code(c.totpSecret, 1)), 'admin_login_locked', 429);
    // An unknown e-mail fails alike.
    expectFail(
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        headers: { lang: 'en' },
        payload: { email: 'nobody@ops.test', password: 'x', totp: '123456' },
      }),
      'admin_login_failed',
      400,
    );
  });

  it('accepts one code once even when two logins race with it', async () => {
    const c = await t.ctx.admin.createOperator(null, { email: 'race@ops.test', name: 'Race', role: 'support' });
    const totp = await code(c.totpSecret);
    const both = await Promise.all(
      [0, 1].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/auth/login',
          headers: { lang: 'en' },
          payload: { email: 'race@ops.test', password: c.password, totp },
        }),
      ),
    );
    expect(both.map((r) => r.json<Env>().status).sort()).toEqual(['FAILED', 'SUCCEED']);
  });

  it('never takes a user session, a missing or a forged token', async () => {
    const asUser = await t.app.inject({ method: 'GET', url: '/api/admin/user/search?q=1', headers: { token: alice.token, userId: alice.userId, lang: 'en' } });
    expectFail(asUser, 'admin_unauthorized', 401);
    expectFail(await get(alice.token, '/api/admin/user/search?q=1'), 'admin_unauthorized', 401);
    expectFail(await get('x'.repeat(43), '/api/admin/auth/me', 'zh'), 'admin_unauthorized', 401, 'zh');
  });

  it('logout revokes that session only, and is audited', async () => {
    const a = await operator('support');
    const b = await operator('support');
    expect((await post(a.token, '/api/admin/auth/logout', {})).json<Env>().status).toBe('SUCCEED');
    expectFail(await get(a.token, '/api/admin/auth/me'), 'admin_unauthorized', 401);
    expectFail(await post(a.token, '/api/admin/auth/logout', {}), 'admin_unauthorized', 401);
    expect((await get(b.token, '/api/admin/auth/me')).json<Env>().status).toBe('SUCCEED');
    const rows = await auditRows(`operatorId=${a.id}&action=logout`, admin.token);
    expect(rows.total).toBe(1);
  });

  it('ends a session after 30 minutes idle and after 8 hours however busy', async () => {
    let clock = Date.now();
    const svc = createAdminService({ db: t.ctx.db, host: t.ctx.host, box: secretBoxFromConfig(t.ctx.config), now: () => clock });
    const c = await svc.createOperator(null, { email: 'clock@ops.test', name: 'Clock', role: 'support' });
    const origin = { ip: '127.0.0.1', userAgent: 'test' };
    const s = await svc.login({ email: 'clock@ops.test', password: c.password, totp: totpAt(c.totpSecret, Math.floor(clock / 30_000)) }, origin);
    clock += ADMIN_IDLE_MS - 60_000;
    expect(await svc.authenticate(s.token, origin)).not.toBeNull();
    // Used every 29 minutes it lives on, up to 8 hours.
    while (clock + 29 * 60_000 < Date.now() + ADMIN_MAX_MS) {
      clock += 29 * 60_000;
      expect(await svc.authenticate(s.token, origin)).not.toBeNull();
    }
    clock = Date.now() + ADMIN_MAX_MS + 1;
    expect(await svc.authenticate(s.token, origin)).toBeNull();
    const s2 = await svc.login({ email: 'clock@ops.test', password: c.password, totp: totpAt(c.totpSecret, Math.floor(clock / 30_000)) }, origin);
    clock += ADMIN_IDLE_MS;
    expect(await svc.authenticate(s2.token, origin)).toBeNull();
  });
});

describe('roles', () => {
  it('support and finance view; compliance decides KYC and freezes; admin manages operators', async () => {
    const support = await operator('support');
    const finance = await operator('finance');
    const compliance = await operator('compliance');
    for (const op of [support, finance, compliance, admin]) {
      expect((await get(op.token, `/api/admin/user/detail?userId=${alice.userId}`)).json<Env>().status).toBe('SUCCEED');
      expect((await get(op.token, '/api/admin/audit/list')).json<Env>().status).toBe('SUCCEED');
    }
    for (const op of [support, finance]) {
      expectFail(await post(op.token, '/api/admin/user/freeze', { userId: bob.userId, reason: 'x' }), 'admin_forbidden', 403);
      expectFail(await post(op.token, '/api/admin/kyc/approve', { id: '1' }), 'admin_forbidden', 403);
      expectFail(await post(op.token, '/api/admin/kyc/reject', { id: '1', reasonZh: '模糊', reasonEn: 'Blurred' }), 'admin_forbidden', 403);
    }
    for (const op of [support, finance, compliance]) {
      expectFail(await get(op.token, '/api/admin/operator/list'), 'admin_forbidden', 403);
      expectFail(await post(op.token, '/api/admin/operator/create', { email: 'x@ops.test', name: 'X', role: 'admin' }), 'admin_forbidden', 403);
      expectFail(await post(op.token, '/api/admin/operator/disable', { operatorId: admin.id, disabled: 'true' }), 'admin_forbidden', 403);
      expectFail(await post(op.token, '/api/admin/operator/resetTotp', { operatorId: admin.id }), 'admin_forbidden', 403);
    }
    expect((await get(admin.token, '/api/admin/operator/list')).json<Env>().status).toBe('SUCCEED');
    // Nothing of the refused actions happened.
    expect(t.ctx.host.engine.user(bob.userId)!.profile.frozen ?? '').toBe('');
  });
});

describe('users', () => {
  it('are found by UID, e-mail and phone; the detail shows balances from the engine', async () => {
    const uuid = t.ctx.host.engine.user(alice.userId)!.profile.uuid!;
    for (const q of [uuid, ALICE, ALICE.toUpperCase()]) {
      const rows = (await get(admin.token, `/api/admin/user/search?q=${encodeURIComponent(q)}`)).json<{ result: Array<{ userId: string }> }>().result;
      expect(rows.map((r) => r.userId)).toEqual([alice.userId]);
    }
    expect((await get(admin.token, '/api/admin/user/search?q=99999999')).json<{ result: unknown[] }>().result).toEqual([]);
    // A phone user (registered through the engine as the member service does): by number, with its area code, in E.164.
    const reg = await t.ctx.host.submit({
      type: 'registerUser',
      account: 'phone:86:13812345678',
      uniqueKeys: ['uuid:87654321', 'wel:PHONEWEL'],
      profile: { uuid: '87654321', mail: '', phone: '13812345678', areaCode: '86', passwordHash: 'x', nickName: '', welCode: 'PHONEWEL', invitedBy: '' },
    });
    await t.ctx.host.projected();
    for (const q of ['13812345678', '86 13812345678', '+8613812345678', '+86 13812345678', '87654321']) {
      const rows = (await get(admin.token, `/api/admin/user/search?q=${encodeURIComponent(q)}`)).json<{ result: Array<{ userId: string; phone: string }> }>()
        .result;
      expect(rows, q).toEqual([expect.objectContaining({ userId: reg.userId, phone: '13812345678', areaCode: '86' })]);
    }
    const detail = (await get(admin.token, `/api/admin/user/detail?userId=${alice.userId}`)).json<{
      result: {
        user: { mail: string; frozen: boolean };
        balances: Array<{ account: string; asset: string; available: string }>;
        sessions: Array<Record<string, unknown>>;
      };
    }>().result;
    expect(detail.user).toMatchObject({ mail: ALICE, frozen: false });
    const usdt = t.ctx.host.engine.balance(alice.userId, 'SPOT', 'USDT');
    if (usdt.available > 0n) expect(detail.balances.find((b) => b.account === 'SPOT' && b.asset === 'USDT')).toBeDefined();
    expect(detail.sessions.length).toBeGreaterThan(0);
    expect(detail.sessions[0]).toMatchObject({ ip: '127.0.0.1', revoked: false });
    expectFail(await get(admin.token, '/api/admin/user/detail?userId=999999'), 'user_not_found', 404);
  });
});

describe('freeze', () => {
  it('stops orders (account_frozen) but not login or reads; unfreeze restores; both audited with before and after', async () => {
    const compliance = await operator('compliance');
    const order = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/entrust/entrust/setEntrust',
        headers: { token: alice.token, userId: alice.userId, lang: 'en' },
        payload: { pairsName: MARKET.symbol, side: 'SELL', orderType: 'LIMIT', price: '100', amount: '1' },
      });
    const beforeAudit = (await auditRows(`userId=${alice.userId}`, admin.token)).total;
    const res = await post(compliance.token, '/api/admin/user/freeze', { userId: alice.userId, reason: 'Suspicious deposits' });
    expect(res.json<Env>().status).toBe('SUCCEED');
    expect(t.ctx.host.engine.user(alice.userId)!.profile.frozen).toBe('1');
    expectFail(await post(compliance.token, '/api/admin/user/freeze', { userId: alice.userId, reason: 'again' }), 'admin_already_frozen', 400);
    // The frozen user logs in and reads, but cannot trade.
    const again = await t.app.inject({ method: 'POST', url: '/api/member/member/login', payload: { account: ALICE, password: PASSWORD } });
    expect(again.json<Env>().status).toBe('SUCCEED');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/member/member/getMember', headers: { token: alice.token, userId: alice.userId } })).json<Env>().status,
    ).toBe('SUCCEED');
    expect((await order()).json<Env>().errorCode).toBe('account_frozen');
    const detail = (await get(compliance.token, `/api/admin/user/detail?userId=${alice.userId}`)).json<{
      result: { user: { frozen: boolean }; frozenReason: string };
    }>().result;
    expect(detail).toMatchObject({ user: { frozen: true }, frozenReason: 'Suspicious deposits' });

    expect((await post(compliance.token, '/api/admin/user/unfreeze', { userId: alice.userId, reason: 'Cleared' })).json<Env>().status).toBe('SUCCEED');
    expectFail(await post(compliance.token, '/api/admin/user/unfreeze', { userId: alice.userId, reason: 'again' }), 'admin_not_frozen', 400);
    expect((await order()).json<Env>().errorCode).not.toBe('account_frozen');

    const log = await auditRows(`userId=${alice.userId}`, admin.token);
    expect(log.total).toBe(beforeAudit + 2);
    expect(log.rows[0]).toMatchObject({
      action: 'user_unfreeze',
      operatorId: compliance.id,
      before: { frozen: true, reason: 'Suspicious deposits' },
      after: { frozen: false, reason: 'Cleared' },
    });
    expect(log.rows[1]).toMatchObject({
      action: 'user_freeze',
      operatorId: compliance.id,
      targetUserId: alice.userId,
      before: { frozen: false, reason: '' },
      after: { frozen: true, reason: 'Suspicious deposits' },
    });
    // The engine's rows carry their journal position: the journal holds the record too.
    const { auditLog } = await import('../../platform/db/schema/audit');
    const { eq } = await import('drizzle-orm');
    const stored = await t.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'user_freeze'));
    expect(stored[0]!.engineSeq).toBeGreaterThan(0);
  });
});

describe('audit log', () => {
  it('filters by operator, action, user and time, with paging', async () => {
    const all = await auditRows('pageSize=100', admin.token);
    expect(all.total).toBeGreaterThan(5);
    const page1 = await auditRows('pageSize=2&page=1', admin.token);
    const page2 = await auditRows('pageSize=2&page=2', admin.token);
    expect(page1.rows.length).toBe(2);
    expect(page2.rows[0]!.id).not.toBe(page1.rows[0]!.id);
    const logins = await auditRows('action=login&pageSize=100', admin.token);
    expect(logins.rows.every((r) => r.action === 'login')).toBe(true);
    // (The clock test above logged in at times up to 8 hours ahead.)
    const future = await auditRows(`from=${Date.now() + 2 * ADMIN_MAX_MS}`, admin.token);
    expect(future.total).toBe(0);
    const past = await auditRows(`to=1`, admin.token);
    expect(past.total).toBe(0);
  });
});

describe('operators', () => {
  it('admin creates one (password and TOTP shown once), who logs in; disable ends its sessions; TOTP reset', async () => {
    const res = await post(admin.token, '/api/admin/operator/create', { email: 'New.Op@Ops.Test', name: 'New', role: 'compliance' });
    const c = res.json<{ result: { operator: { id: string; email: string }; password: string; totpSecret: string; otpauthUrl: string } }>().result;
    expect(c.operator.email).toBe('new.op@ops.test');
    expect(c.otpauthUrl).toContain(`secret=${c.totpSecret}`);
    expectFail(await post(admin.token, '/api/admin/operator/create', { email: 'new.op@ops.test', name: 'Dup', role: 'support' }), 'operator_exists', 400);
    const login = async (secret: string, offset: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        headers: { lang: 'en' },
        payload: { email: 'new.op@ops.test', password: c.password, totp: await code(secret, offset) },
      });
    const s = (await login(c.totpSecret, -1)).json<{ result: { token: string } }>().result;
    expect((await get(s.token, '/api/admin/auth/me')).json<Env>().status).toBe('SUCCEED');
    expect((await post(admin.token, '/api/admin/operator/disable', { operatorId: c.operator.id, disabled: 'true' })).json<Env>().status).toBe('SUCCEED');
    expectFail(await get(s.token, '/api/admin/auth/me'), 'admin_unauthorized', 401);
    expectFail(await login(c.totpSecret, 0), 'admin_login_failed', 400);
    expect((await post(admin.token, '/api/admin/operator/disable', { operatorId: c.operator.id, disabled: 'false' })).json<Env>().status).toBe('SUCCEED');
    const reset = (await post(admin.token, '/api/admin/operator/resetTotp', { operatorId: c.operator.id })).json<{ result: { totpSecret: string } }>().result;
    expect(reset.totpSecret).not.toBe(c.totpSecret);
    expectFail(await login(c.totpSecret, 1), 'admin_login_failed', 400);
    expect((await login(reset.totpSecret, 1)).json<Env>().status).toBe('SUCCEED');
    expectFail(await post(admin.token, '/api/admin/operator/disable', { operatorId: admin.id, disabled: 'true' }), 'operator_self', 400);
    const actions = (await auditRows(`operatorId=${admin.id}&pageSize=100`, admin.token)).rows.map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['operator_create', 'operator_disable', 'operator_enable', 'operator_totp_reset']));
    const created = (await auditRows(`operatorId=${admin.id}&action=operator_create`, admin.token)).rows[0]!;
    expect(created.after).toMatchObject({ email: 'new.op@ops.test', role: 'compliance' });
    expect(JSON.stringify(created)).not.toContain(c.totpSecret);
  });

  it('demo mode creates the demo operator once, with its documented credentials that log in', async () => {
    const first = await ensureDemoOperator(t.ctx);
    expect(first).toEqual({ email: DEMO_OPERATOR_EMAIL, password: DEMO_OPERATOR_PASSWORD, totpSecret: DEMO_OPERATOR_TOTP, created: true });
    expect((await ensureDemoOperator(t.ctx))?.created).toBe(false);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { email: DEMO_OPERATOR_EMAIL, password: DEMO_OPERATOR_PASSWORD, totp: await code(DEMO_OPERATOR_TOTP) },
    });
    expect(res.json<Env>().status).toBe('SUCCEED');
    expect(await ensureDemoOperator({ ...t.ctx, config: { ...t.ctx.config, demoMode: false } })).toBeNull();
  });
});

describe('KYC review through the console', () => {
  it('lists pending first, shows data and images (each view audited), rejects with a zh/en reason the user sees, then approves', async () => {
    const { loginUser, mainlandId, uploadOk } = await import('../kyc/kyc-test-support');
    const carol = await loginUser(t, 'carol@admin.test');
    const compliance = await operator('compliance');
    const support = await operator('support');
    const submit = await t.app.inject({
      method: 'POST',
      url: '/api/member/kyc/submitBasic',
      headers: carol.headers,
      payload: { realName: '李四', idType: 'ID_CARD', idNumber: mainlandId('19880512') },
    });
    expect(submit.json<Env>().status).toBe('SUCCEED');

    const list = (await get(support.token, '/api/admin/kyc/list?state=PENDING')).json<{
      result: { total: number; rows: Array<{ id: string; userId: string; state: string; realName: string }> };
    }>().result;
    const row = list.rows.find((r) => r.userId === carol.userId)!;
    expect(row).toMatchObject({ state: 'PENDING', realName: '李四' });
    const detail = (await get(support.token, `/api/admin/kyc/detail?id=${row.id}`)).json<{ result: { fields: Record<string, string> } }>().result;
    expect(Object.values(detail.fields)).toContain('李四');

    // Support views but cannot decide; compliance rejects with a reason in both languages.
    expectFail(await post(support.token, '/api/admin/kyc/approve', { id: row.id }), 'admin_forbidden', 403);
    expect(
      (
        await post(compliance.token, '/api/admin/kyc/reject', { id: row.id, reasonZh: '姓名与证件不符', reasonEn: 'The name does not match the document' })
      ).json<Env>().status,
    ).toBe('SUCCEED');
    expectFail(await post(compliance.token, '/api/admin/kyc/approve', { id: row.id }), 'admin_kyc_not_pending', 400);
    for (const [lang, reason] of [
      ['en', 'The name does not match the document'],
      ['zh', '姓名与证件不符'],
    ] as const) {
      const kyc = await t.app.inject({ method: 'GET', url: '/api/member/kyc/getKyc', headers: { ...carol.headers, lang } });
      expect(kyc.json<{ result: { basic: { state: string; rejectReason: string } } }>().result.basic).toMatchObject({
        state: 'REJECTED',
        rejectReason: reason,
      });
    }
    const rejected = (await auditRows(`action=kyc_reject&userId=${carol.userId}`, admin.token)).rows[0]!;
    expect(rejected).toMatchObject({
      operatorId: compliance.id,
      before: { applicationId: row.id, state: 'PENDING' },
      after: { applicationId: row.id, state: 'REJECTED', reasonZh: '姓名与证件不符', reasonEn: 'The name does not match the document' },
    });

    // Resubmitted and approved: the user is verified.
    await t.app.inject({
      method: 'POST',
      url: '/api/member/kyc/submitBasic',
      headers: carol.headers,
      payload: { realName: '李四', idType: 'ID_CARD', idNumber: mainlandId('19880512') },
    });
    const again = (await get(compliance.token, `/api/admin/kyc/list?state=PENDING&level=BASIC`))
      .json<{ result: { rows: Array<{ id: string; userId: string }> } }>()
      .result.rows.find((r) => r.userId === carol.userId)!;
    expect((await post(compliance.token, '/api/admin/kyc/approve', { id: again.id })).json<Env>().status).toBe('SUCCEED');
    expect(t.ctx.host.engine.user(carol.userId)!.profile.cardState).toBe('PASS');
    expect((await auditRows(`action=kyc_approve&userId=${carol.userId}`, admin.token)).rows[0]).toMatchObject({
      operatorId: compliance.id,
      after: { state: 'PASS' },
    });

    // Advanced: the images reach an operator (and each view is audited); an unknown image is not found.
    const ids = {
      frontImageId: await uploadOk(t.app, carol, 'ID_FRONT'),
      backImageId: await uploadOk(t.app, carol, 'ID_BACK'),
      handheldImageId: await uploadOk(t.app, carol, 'ID_HANDHELD'),
    };
    expect((await t.app.inject({ method: 'POST', url: '/api/member/kyc/submitAdvanced', headers: carol.headers, payload: ids })).json<Env>().status).toBe(
      'SUCCEED',
    );
    const adv = (await get(support.token, '/api/admin/kyc/list?level=ADVANCED&state=PENDING'))
      .json<{ result: { rows: Array<{ id: string; userId: string }> } }>()
      .result.rows.find((r) => r.userId === carol.userId)!;
    const advDetail = (await get(support.token, `/api/admin/kyc/detail?id=${adv.id}`)).json<{ result: { imageIds: string[] } }>().result;
    expect(advDetail.imageIds.sort()).toEqual(Object.values(ids).sort());
    const img = await get(support.token, `/api/admin/kyc/image?imageId=${ids.frontImageId}`);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.headers['cache-control']).toBe('no-store');
    expect(img.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await auditRows(`action=kyc_image_view&operatorId=${support.id}`, admin.token)).rows[0]).toMatchObject({
      after: { imageId: ids.frontImageId },
      targetUserId: carol.userId,
    });
    expect((await get(support.token, '/api/admin/kyc/image?imageId=999999')).statusCode).toBe(404);
    // A user's own session never reaches the console's image route.
    expectFail(
      await t.app.inject({ method: 'GET', url: `/api/admin/kyc/image?imageId=${ids.frontImageId}`, headers: { ...carol.headers, lang: 'en' } }),
      'admin_unauthorized',
      401,
    );
  }, 60_000);
});
