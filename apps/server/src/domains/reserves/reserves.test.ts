/**
 * Proves proof of reserves through app.inject on PGlite (PostgreSQL with DATABASE_URL) and the real engine: before any
 * snapshot getRoot answers reserves_no_snapshot; a finance operator takes a snapshot (support may not; the audit log
 * names it); getRoot's totals equal the engine's per-asset sums over the users' four accounts, available and frozen
 * (and so the negated sum of the system accounts: the ledger is double-entry); every user's getMyProof verifies with
 * packages/core's verifyProof against getRoot's root, and a tampered copy does not; a user only ever gets their own
 * proof; a user registered after the snapshot is not in it until the next one, which has fresh salts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ACCOUNT_KINDS, parseDecimal } from '@exchange/core';
import { verifyProof } from '@exchange/core/reserves';
import { errorText, type ReservesProof, type ReservesRoot } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { readLiabilities, reserveRatio } from './reserves.service';
import { startReservesJob } from './reserves.job';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let financeToken = '';
let supportToken = '';

async function operatorToken(role: 'finance' | 'support'): Promise<string> {
  const email = `${role}@reserves.test`;
  const c = await t.ctx.admin.createOperator(null, { email, name: role, role });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { email, password: c.password, totp: await generate({ secret: c.totpSecret }) },
  });
  expect(res.json().status).toBe('SUCCEED');
  return res.json().result.token as string;
}

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  // demo mode: each new user gets 10,000 USDT in SPOT from '@faucet'; more assets and accounts below
  alice = await loginUser(t, 'alice@reserves.test');
  bob = await loginUser(t, 'bob@reserves.test');
  carol = await loginUser(t, 'carol@reserves.test');
  const submit = async (cmd: Parameters<typeof t.ctx.host.submit>[0]) => expect((await t.ctx.host.submit(cmd)).code).toBe('ok');
  await submit({ type: 'deposit', userId: alice.userId, asset: 'BTC', account: 'ASSETS', amount: 123_456_789n, from: '@chain' });
  await submit({ type: 'deposit', userId: bob.userId, asset: 'ETH', account: 'ASSETS', amount: 5_000_000_000n, from: '@chain' });
  await submit({ type: 'transfer', userId: bob.userId, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 250_000_000n, clientId: 'r1' });
  // a withdrawal under review holds (freezes) part of bob's ETH: frozen balances are liabilities too
  await submit({
    type: 'requestWithdrawal',
    userId: bob.userId,
    asset: 'ETH',
    chain: 'ETH',
    address: '0x000000000000000000000000000000000000dEaD',
    amount: 1_000_000_000n,
    fee: 100_000n,
    clientId: 'w1',
    approvalsRequired: 1,
    dailyLimit: 10n ** 18n,
  });
  financeToken = await operatorToken('finance');
  supportToken = await operatorToken('support');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const takeSnapshot = (token: string, lang: 'zh' | 'en' = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/admin/wallet/reservesSnapshot', headers: { 'x-admin-token': token, lang } });
const getRoot = () => t.app.inject({ method: 'GET', url: '/api/asset/reserves/getRoot', headers: { lang: 'en' } });
const getProof = (headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/asset/reserves/getMyProof${query}`, headers: { ...headers, lang: 'en' } });

function expectFail(res: { statusCode: number; json(): unknown }, code: string, status: number, lang: 'zh' | 'en' = 'en'): void {
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: code, errorMessage: errorText(code, lang), result: null });
  expect(res.statusCode).toBe(status);
}

/** Verifies a downloaded proof against a published root exactly as the app's page does (core's verifyProof). */
function verifies(proof: ReservesProof, root: ReservesRoot): boolean {
  const rootSums = root.totals.map((x, i) => parseDecimal(x.liabilities, proof.scales[i]!));
  return verifyProof(
    { userId: proof.userId, salt: proof.salt, balances: proof.balances.map(BigInt) },
    proof.path.map((s) => ({ side: s.side, hash: s.hash, sums: s.sums.map(BigInt) })),
    { hash: root.rootHash, sums: rootSums },
  );
}

describe('before the first snapshot', () => {
  it('getRoot and getMyProof answer reserves_no_snapshot in zh and en', async () => {
    expectFail(await getRoot(), 'reserves_no_snapshot', 404);
    expectFail(await getProof(alice.headers), 'reserves_no_snapshot', 404);
    const zh = await t.app.inject({ method: 'GET', url: '/api/asset/reserves/getRoot', headers: { lang: 'zh' } });
    expectFail(zh, 'reserves_no_snapshot', 404, 'zh');
  });
});

describe('a snapshot', () => {
  let root: ReservesRoot;

  it('is refused to support and without a console session, and taken by finance with an audit row', async () => {
    expectFail(await takeSnapshot(supportToken), 'admin_forbidden', 403);
    expectFail(await takeSnapshot(''), 'admin_unauthorized', 401);
    // a user's token is not a console session
    expectFail(
      await t.app.inject({ method: 'POST', url: '/api/admin/wallet/reservesSnapshot', headers: { ...alice.headers, lang: 'en' } }),
      'admin_unauthorized',
      401,
    );
    const res = await takeSnapshot(financeToken);
    expect(res.json().status).toBe('SUCCEED');
    const result = res.json().result as { snapshotId: string; rootHash: string; leafCount: number };
    expect(result.leafCount).toBe(3);
    expect(result.rootHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await t.app.inject({ method: 'GET', url: '/api/admin/audit/list?action=reserves_snapshot', headers: { 'x-admin-token': financeToken } });
    expect(audit.json().result.rows[0]).toMatchObject({
      operatorEmail: 'finance@reserves.test',
      action: 'reserves_snapshot',
      after: { snapshotId: result.snapshotId, rootHash: result.rootHash, leafCount: 3 },
    });

    const published = await getRoot();
    expect(published.json().status).toBe('SUCCEED');
    root = published.json().result;
    expect(root).toMatchObject({ snapshotId: result.snapshotId, rootHash: result.rootHash, leafCount: 3 });
  });

  it("publishes totals equal to the engine's per-asset sums over the users' accounts, available and frozen", () => {
    const engine = t.ctx.host.engine;
    expect(root.assets).toEqual(
      engine
        .assets()
        .map((a) => a.code)
        .sort(),
    );
    for (const [i, coin] of root.assets.entries()) {
      const scale = engine.asset(coin)!.scale;
      let users = 0n;
      for (const u of [alice, bob, carol])
        for (const kind of ACCOUNT_KINDS) {
          const b = engine.balance(u.userId, kind, coin);
          users += b.available + b.frozen;
        }
      expect(parseDecimal(root.totals[i]!.liabilities, scale)).toBe(users);
      // double entry: what users hold is what the system accounts gave out
      let system = 0n;
      for (const owner of ['@faucet', '@chain', '@fee', '@insurance']) {
        const b = engine.balance(owner, 'SYSTEM', coin);
        system += b.available + b.frozen;
      }
      expect(users + system).toBe(0n);
    }
    const at = (coin: string) => root.totals[root.assets.indexOf(coin)]!;
    expect(at('USDT').liabilities).toBe('30000.00000000');
    expect(at('BTC').liabilities).toBe('1.23456789');
    // bob's ETH: 50 deposited, 10 of them frozen by the withdrawal under review: all 50 are owed
    expect(at('ETH').liabilities).toBe('50.00000000');
    // no chain reserves wired in this test: '' and no ratio
    expect(at('USDT')).toMatchObject({ reserves: '', ratio: '' });
  });

  it("gives every user their own leaf and path, which verify against getRoot's root", async () => {
    for (const u of [alice, bob, carol]) {
      const res = await getProof(u.headers);
      expect(res.json().status).toBe('SUCCEED');
      const proof = res.json().result as ReservesProof;
      expect(proof).toMatchObject({ snapshotId: root.snapshotId, rootHash: root.rootHash, userId: u.userId, assets: root.assets });
      expect(proof.salt).toMatch(/^[0-9a-f]{32}$/);
      expect(proof.path.length).toBe(2); // 3 leaves padded to 4
      expect(verifies(proof, root)).toBe(true);
    }
    const bobProof = (await getProof(bob.headers)).json().result as ReservesProof;
    expect(bobProof.balances[root.assets.indexOf('ETH')]).toBe('5000000000');
    expect(bobProof.balances[root.assets.indexOf('USDT')]).toBe('1000000000000');
  });

  it('a tampered balance, salt or sibling sum does not verify', async () => {
    const proof = (await getProof(alice.headers)).json().result as ReservesProof;
    const btc = root.assets.indexOf('BTC');
    const more = proof.balances.map((b, i) => (i === btc ? (BigInt(b) + 1n).toString() : b));
    expect(verifies({ ...proof, balances: more }, root)).toBe(false);
    expect(verifies({ ...proof, salt: proof.salt.replace(/^./, (c) => (c === '0' ? '1' : '0')) }, root)).toBe(false);
    const path = proof.path.map((s, k) => (k === 0 ? { ...s, sums: s.sums.map((x, i) => (i === btc ? (BigInt(x) - 1n).toString() : x)) } : s));
    expect(verifies({ ...proof, path }, root)).toBe(false);
  });

  it("never answers another user's proof: the session decides, not a header or a query", async () => {
    // alice's token with bob's userId header is not a session (the login has expired, as far as anyone can tell)
    const forged = await getProof({ token: alice.token, userId: bob.userId });
    expect(forged.json()).toMatchObject({ status: 'FAILED', errorCode: 'SYS.0015', result: null });
    const res = await getProof(alice.headers, `?userId=${bob.userId}`);
    expect(res.json().result.userId).toBe(alice.userId);
    expectFail(await getProof({}), 'unauthorized', 401);
  });

  it('leaves out a user registered after it until the next snapshot, which has fresh salts', async () => {
    const dave = await loginUser(t, 'dave@reserves.test');
    expectFail(await getProof(dave.headers), 'reserves_not_included', 404);
    const before = (await getProof(alice.headers)).json().result as ReservesProof;
    const second = await takeSnapshot(financeToken);
    expect(second.json().result.leafCount).toBe(4);
    const root2 = (await getRoot()).json().result as ReservesRoot;
    expect(root2.snapshotId).not.toBe(root.snapshotId);
    const daveProof = (await getProof(dave.headers)).json().result as ReservesProof;
    expect(verifies(daveProof, root2)).toBe(true);
    const after = (await getProof(alice.headers)).json().result as ReservesProof;
    expect(after.salt).not.toBe(before.salt);
    expect(verifies(after, root2)).toBe(true);
    // an old proof does not verify against the new root
    expect(verifies(before, root2)).toBe(false);
  });
});

describe('the job', () => {
  it('takes no demo snapshot when one exists, and none at all where the chain jobs do not run', async () => {
    const before = (await getRoot()).json().result.snapshotId as string;
    expect(await t.ctx.reserves.ensureSnapshot()).toBe(false);
    const stop = await startReservesJob(t.ctx);
    stop();
    const off = await startReservesJob({ ...t.ctx, config: { ...t.ctx.config, chainJobs: false } });
    off();
    expect((await getRoot()).json().result.snapshotId).toBe(before);
  });
});

describe('helpers', () => {
  it('reserveRatio: 4 places rounded down, empty without reserves or liabilities', () => {
    expect(reserveRatio(2n, 3n)).toBe('0.6666');
    expect(reserveRatio(105n, 100n)).toBe('1.0500');
    expect(reserveRatio(null, 100n)).toBe('');
    expect(reserveRatio(5n, 0n)).toBe('');
  });
  it('readLiabilities skips system, market-making and empty owners', () => {
    const engine = {
      assets: () => [
        { code: 'USDT', scale: 8 },
        { code: 'BTC', scale: 8 },
      ],
      userRows: () =>
        [
          ['1', 'a', [], {}],
          ['mm-BTC-USDT', 'b', [], {}],
          ['2', 'c', [], {}],
        ] as Array<[string, string, string[], Record<string, string>]>,
      balancesOf: (owner: string) =>
        new Map(
          owner === '2'
            ? []
            : [
                ['SPOT' as const, new Map([['BTC', { available: 3n, frozen: 4n }]])],
                ['SYSTEM' as const, new Map([['USDT', { available: 9n, frozen: 0n }]])],
              ],
        ),
    };
    expect(readLiabilities(engine)).toEqual({ assets: ['BTC', 'USDT'], scales: [8, 8], users: [{ userId: '1', balances: [7n, 0n] }] });
  });
});
