/**
 * Proves identity verification through app.inject on PGlite (PostgreSQL with DATABASE_URL), with the console's
 * side played through `ctx.kyc` (listApplications, application, decide) as domains/admin calls it: each field rule
 * of submitBasic in zh and en, guardian consent under 16, one pending application at a time, a rejection whose
 * reason the user reads in their language, resubmission, approval journaled in the engine profile (cardState,
 * cardNo masked, realName, the idno key) and shown by getMember; the same ID number never verifying two users
 * (at submission and at approval); the advanced level with the user's own uploads only; another user seeing none
 * of it; decisions refused twice, on unknown ids and without reasons.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorText, type ErrorCode } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { TEST_AUDIT, latestApplicationId, loginUser, mainlandId, uploadOk, verifyBasic, type TestUser } from './kyc-test-support';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  alice = await loginUser(t, 'alice@kyc.test');
  bob = await loginUser(t, 'bob@kyc.test');
  carol = await loginUser(t, 'carol@kyc.test');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const ALICE_ID = mainlandId('19900307', '456');

function submitBasic(user: TestUser, body: Record<string, string | boolean>, lang: 'zh' | 'en' = 'en') {
  return t.app.inject({
    method: 'POST',
    url: '/api/member/kyc/submitBasic',
    headers: { ...user.headers, lang, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
  });
}
function submitAdvanced(user: TestUser, body: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/api/member/kyc/submitAdvanced', headers: { ...user.headers, lang: 'en' }, payload: body });
}
async function getKyc(user: TestUser, lang: 'zh' | 'en' = 'en') {
  const res = await t.app.inject({ method: 'GET', url: '/api/member/kyc/getKyc', headers: { ...user.headers, lang } });
  expect(res.json().status).toBe('SUCCEED');
  return res.json().result;
}
async function getMember(user: TestUser) {
  return (await t.app.inject({ method: 'GET', url: '/api/member/member/getMember', headers: user.headers })).json().result;
}
function expectFail(res: { statusCode: number; json(): unknown }, code: ErrorCode, lang: 'zh' | 'en' = 'en', field?: string, status = 400): void {
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: code, errorMessage: errorText(code, lang, field), result: null });
  expect(res.statusCode).toBe(status);
}

describe('basic verification', () => {
  it('starts unverified', async () => {
    expect(await getKyc(alice)).toEqual({
      basic: { state: 'NONE', country: '', realName: '', idType: '', idNumber: '', rejectReason: '', submittedAt: 0, decidedAt: 0 },
      advanced: { state: 'NONE', rejectReason: '', submittedAt: 0, decidedAt: 0 },
    });
    expect(await getMember(alice)).toMatchObject({ cardNo: '', cardState: '' });
  });

  it('refuses each bad field with its own message in zh and en, and stores nothing', async () => {
    const base = { realName: '王小明', idType: 'ID_CARD', idNumber: ALICE_ID };
    const bad: Array<[Record<string, string>, ErrorCode, string]> = [
      [{ realName: 'Alice1' }, 'real_name_invalid', 'realName'],
      [{ realName: '王·' }, 'real_name_invalid', 'realName'],
      [{ idNumber: `${ALICE_ID.slice(0, 17)}${ALICE_ID[17] === '0' ? '1' : '0'}` }, 'id_number_invalid', 'idNumber'],
      [{ idNumber: mainlandId('20991231') }, 'id_number_invalid', 'idNumber'],
      [{ idNumber: mainlandId('19900231') }, 'id_number_invalid', 'idNumber'],
      [{ idType: 'PASSPORT', idNumber: 'E12' }, 'id_number_invalid', 'idNumber'],
      [{ country: 'XX' }, 'country_invalid', 'country'],
    ];
    for (const [over, code, field] of bad) {
      for (const lang of ['zh', 'en'] as const) expectFail(await submitBasic(alice, { ...base, ...over }, lang), code, lang, field);
    }
    expect((await getKyc(alice)).basic.state).toBe('NONE');
    expect((await t.ctx.kyc.listApplications({ userId: alice.userId, page: 1, pageSize: 10 })).total).toBe(0);
  });

  it('needs guardian consent under 16 (spec section 9)', async () => {
    const now = new Date();
    const y = now.getUTCFullYear() - 15;
    const minor = mainlandId(`${y}0101`);
    expectFail(await submitBasic(carol, { realName: '李小小', idType: 'ID_CARD', idNumber: minor }), 'guardian_consent_required', 'en', 'guardianConsent');
    expectFail(
      await submitBasic(carol, { realName: '李小小', idType: 'ID_CARD', idNumber: minor, guardianConsent: false }),
      'guardian_consent_required',
      'en',
      'guardianConsent',
    );
    expect((await submitBasic(carol, { realName: '李小小', idType: 'ID_CARD', idNumber: minor, guardianConsent: true })).json().status).toBe('SUCCEED');
    const app = await t.ctx.kyc.application(await latestApplicationId(t, carol.userId, 'BASIC'));
    expect(app?.fields).toMatchObject({ guardianConsent: 'true', idNumber: minor, country: 'CN' });
  });

  it('goes PENDING, one at a time, then a rejection the user reads in their language, then resubmission and approval', async () => {
    const res = await submitBasic(alice, { realName: '王小明', idType: 'ID_CARD', idNumber: ALICE_ID.toLowerCase() });
    expect(res.json()).toEqual({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: null });
    const pending = await getKyc(alice);
    expect(pending.basic).toMatchObject({
      state: 'PENDING',
      country: 'CN',
      realName: '王小明',
      idType: 'ID_CARD',
      idNumber: `${ALICE_ID.slice(0, 3)}***********${ALICE_ID.slice(-4)}`,
      rejectReason: '',
    });
    expect(pending.basic.submittedAt).toBeGreaterThan(0);
    expect(await getMember(alice)).toMatchObject({ cardNo: '', cardState: 'PENDING' });
    expectFail(await submitBasic(alice, { realName: '王小明', idType: 'ID_CARD', idNumber: ALICE_ID }), 'kyc_pending');
    // Bob sees nothing of it.
    expect((await getKyc(bob)).basic.state).toBe('NONE');

    const id = await latestApplicationId(t, alice.userId, 'BASIC');
    await expect(t.ctx.kyc.decide(id, { approve: false, reasonZh: ' ', reasonEn: 'Blurry' }, TEST_AUDIT)).rejects.toMatchObject({
      code: 'kyc_reason_required',
    });
    await t.ctx.kyc.decide(id, { approve: false, reasonZh: '姓名与证件不符', reasonEn: 'The name does not match the document' }, TEST_AUDIT);
    expect((await getKyc(alice, 'zh')).basic).toMatchObject({ state: 'REJECTED', rejectReason: '姓名与证件不符' });
    const rejected = (await getKyc(alice, 'en')).basic;
    expect(rejected).toMatchObject({ state: 'REJECTED', rejectReason: 'The name does not match the document' });
    expect(rejected.decidedAt).toBeGreaterThanOrEqual(rejected.submittedAt);
    expect(await getMember(alice)).toMatchObject({ cardNo: '', cardState: 'REJECTED' });
    await expect(t.ctx.kyc.decide(id, { approve: true }, TEST_AUDIT)).rejects.toMatchObject({ code: 'admin_kyc_not_pending' });

    expect((await submitBasic(alice, { realName: '王 明', idType: 'ID_CARD', idNumber: ALICE_ID })).json().status).toBe('SUCCEED');
    const second = await latestApplicationId(t, alice.userId, 'BASIC');
    expect(second).not.toBe(id);
    expect((await getKyc(alice)).basic).toMatchObject({ state: 'PENDING', rejectReason: '' });
    await t.ctx.kyc.decide(second, { approve: true }, TEST_AUDIT);
    const masked = `${ALICE_ID.slice(0, 3)}***********${ALICE_ID.slice(-4)}`;
    expect((await getKyc(alice)).basic).toMatchObject({ state: 'PASS', realName: '王 明', idNumber: masked, rejectReason: '' });
    expect(await getMember(alice)).toMatchObject({ cardNo: masked, cardState: 'PASS' });
    // Journaled: the engine profile holds the result and the document's unique key (survives a lost database).
    const u = t.ctx.host.engine.user(alice.userId)!;
    expect(u.profile).toMatchObject({ cardState: 'PASS', cardNo: masked, realName: '王 明', kycCountry: 'CN', kycIdType: 'ID_CARD', kycLevel: 'BASIC' });
    expect(t.ctx.host.engine.userByKey(`idno:CN:${ALICE_ID}`)).toBe(alice.userId);
    expectFail(await submitBasic(alice, { realName: '王小明', idType: 'ID_CARD', idNumber: ALICE_ID }), 'kyc_already_verified');
    // The history: both applications, the rejected one with its reasons.
    const history = await t.ctx.kyc.listApplications({ userId: alice.userId, page: 1, pageSize: 10 });
    expect(history.rows.map((r) => [r.id, r.state])).toEqual([
      [second, 'PASS'],
      [id, 'REJECTED'],
    ]);
    expect(history.rows[1]).toMatchObject({
      reasonZh: '姓名与证件不符',
      reasonEn: 'The name does not match the document',
      level: 'BASIC',
      userId: alice.userId,
    });
  });

  it('never verifies one ID number for two users: refused at submission, and at approval when both applied first', async () => {
    expectFail(await submitBasic(bob, { realName: '赵六', idType: 'ID_CARD', idNumber: ALICE_ID }), 'id_number_taken', 'en', 'idNumber');
    // Bob and Dave apply with the same passport number; the first approval wins, the second is refused.
    const dave = await loginUser(t, 'dave@kyc.test');
    expect((await submitBasic(bob, { country: 'GB', realName: 'Bob Smith', idType: 'PASSPORT', idNumber: 'P1234567' })).json().status).toBe('SUCCEED');
    expect((await submitBasic(dave, { country: 'GB', realName: 'Dave Smith', idType: 'PASSPORT', idNumber: 'p1234567' })).json().status).toBe('SUCCEED');
    await t.ctx.kyc.decide(await latestApplicationId(t, bob.userId, 'BASIC'), { approve: true }, TEST_AUDIT);
    await expect(t.ctx.kyc.decide(await latestApplicationId(t, dave.userId, 'BASIC'), { approve: true }, TEST_AUDIT)).rejects.toMatchObject({
      code: 'id_number_taken',
    });
    expect(await getMember(dave)).toMatchObject({ cardNo: '', cardState: 'PENDING' });
    expect((await getMember(bob)).cardState).toBe('PASS');
  });

  it('answers unknown application ids as not found', async () => {
    for (const id of ['999999', 'abc', '-1', '99999999999999999999']) {
      await expect(t.ctx.kyc.decide(id, { approve: true }, TEST_AUDIT)).rejects.toMatchObject({ code: 'admin_kyc_not_found' });
      expect(await t.ctx.kyc.application(id)).toBeNull();
    }
  });
});

describe('advanced verification', () => {
  it('needs basic PASS first', async () => {
    const erin = await loginUser(t, 'erin@kyc.test');
    const ids = {
      frontImageId: await uploadOk(t.app, erin, 'ID_FRONT'),
      backImageId: await uploadOk(t.app, erin, 'ID_BACK'),
      handheldImageId: await uploadOk(t.app, erin, 'ID_HANDHELD'),
    };
    expectFail(await submitAdvanced(erin, ids), 'kyc_basic_required');
  });

  it("takes the user's own three photos of the right kinds, goes PENDING, and an approval makes it PASS", async () => {
    const front = await uploadOk(t.app, alice, 'ID_FRONT');
    const back = await uploadOk(t.app, alice, 'ID_BACK');
    const handheld = await uploadOk(t.app, alice, 'ID_HANDHELD');
    const bobsFront = await uploadOk(t.app, bob, 'ID_FRONT');
    // Another user's image, an image of another kind, an unknown id: refused, nothing stored.
    expectFail(
      await submitAdvanced(alice, { frontImageId: bobsFront, backImageId: back, handheldImageId: handheld }),
      'kyc_images_invalid',
      'en',
      'frontImageId',
    );
    expectFail(await submitAdvanced(alice, { frontImageId: front, backImageId: front, handheldImageId: handheld }), 'kyc_images_invalid', 'en', 'backImageId');
    expectFail(
      await submitAdvanced(alice, { frontImageId: front, backImageId: back, handheldImageId: 'B'.repeat(22) }),
      'kyc_images_invalid',
      'en',
      'handheldImageId',
    );
    expect((await getKyc(alice)).advanced.state).toBe('NONE');

    expect((await submitAdvanced(alice, { frontImageId: front, backImageId: back, handheldImageId: handheld })).json().status).toBe('SUCCEED');
    expect((await getKyc(alice)).advanced.state).toBe('PENDING');
    expectFail(await submitAdvanced(alice, { frontImageId: front, backImageId: back, handheldImageId: handheld }), 'kyc_pending');
    const pending = await t.ctx.kyc.listApplications({ state: 'PENDING', level: 'ADVANCED', page: 1, pageSize: 10 });
    expect(pending.rows.map((r) => r.userId)).toContain(alice.userId);
    const id = await latestApplicationId(t, alice.userId, 'ADVANCED');
    const full = await t.ctx.kyc.application(id);
    expect(full?.imageIds).toEqual([front, back, handheld]);
    expect(full?.fields).toMatchObject({ realName: '王 明', country: 'CN' });
    // The operator opens the photos through the port; bob cannot.
    expect((await t.ctx.kyc.imageFor(handheld, { operatorId: '7' })).mime).toBe('image/jpeg');
    await expect(t.ctx.kyc.imageFor(handheld, { userId: bob.userId })).rejects.toMatchObject({ code: 'not_found' });

    await t.ctx.kyc.decide(id, { approve: true }, TEST_AUDIT);
    expect((await getKyc(alice)).advanced).toMatchObject({ state: 'PASS', rejectReason: '' });
    expect(t.ctx.host.engine.user(alice.userId)!.profile).toMatchObject({ kycAdvState: 'PASS', kycLevel: 'ADVANCED', cardState: 'PASS' });
    expectFail(await submitAdvanced(alice, { frontImageId: front, backImageId: back, handheldImageId: handheld }), 'kyc_already_verified');
  });

  it('verifyBasic helper: a second user verified with another number', async () => {
    const frank = await loginUser(t, 'frank@kyc.test');
    await verifyBasic(t, frank, '钱七', mainlandId('19850101', '777'));
    expect((await getMember(frank)).cardState).toBe('PASS');
  });
});
