/**
 * Proves the review journey across the two sides through the HTTP API (PGlite, or PostgreSQL with DATABASE_URL): a
 * user submits the basic verification, a compliance operator (logged in with a TOTP code) finds it in the console's
 * queue, reads the submitted data, rejects it with a reason the user then reads in zh and in en, the user resubmits,
 * the operator approves; the advanced photos are reviewed the same way. Each decision leaves an audit row, and the
 * user sees PASS in getMember and getKyc.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, mainlandId, uploadOk, type TestUser } from './kyc-test-support';

let t: TestApp;
let user: TestUser;
let opToken = '';

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  user = await loginUser(t, 'gina@kyc-console.test');
  const email = 'compliance@kyc-console.test';
  const c = await t.ctx.admin.createOperator(null, { email, name: 'Compliance', role: 'compliance' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { email, password: c.password, totp: await generate({ secret: c.totpSecret }) },
  });
  expect(res.json().status).toBe('SUCCEED');
  opToken = res.json().result.token;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const console_ = {
  get: (url: string) => t.app.inject({ method: 'GET', url: `/api/admin/${url}`, headers: { 'x-admin-token': opToken, lang: 'en' } }),
  post: (url: string, payload: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/admin/${url}`, headers: { 'x-admin-token': opToken, lang: 'en' }, payload }),
};
async function userGet(url: string, lang: 'zh' | 'en' = 'en') {
  const res = await t.app.inject({ method: 'GET', url: `/api/member/${url}`, headers: { ...user.headers, lang } });
  expect(res.json().status).toBe('SUCCEED');
  return res.json().result;
}
async function pendingOf(level: 'BASIC' | 'ADVANCED'): Promise<string> {
  const list = await console_.get(`kyc/list?state=PENDING&level=${level}`);
  expect(list.json().status).toBe('SUCCEED');
  const row = (list.json().result.rows as Array<{ id: string; userId: string }>).find((r) => r.userId === user.userId);
  expect(row).toBeDefined();
  return row!.id;
}

describe('review in the console', () => {
  it('reject with a reason, resubmit, approve; then the advanced photos', async () => {
    const idNumber = mainlandId('19951010', '246');
    const submit = () =>
      t.app.inject({ method: 'POST', url: '/api/member/kyc/submitBasic', headers: user.headers, payload: { realName: '孙丽', idType: 'ID_CARD', idNumber } });
    expect((await submit()).json().status).toBe('SUCCEED');

    const first = await pendingOf('BASIC');
    const detail = await console_.get(`kyc/detail?id=${first}`);
    expect(detail.json().result.fields).toMatchObject({ realName: '孙丽', idNumber, idType: 'ID_CARD', country: 'CN' });
    const rejected = await console_.post('kyc/reject', { id: first, reasonZh: '证件号码与姓名不符', reasonEn: 'The ID number does not match the name' });
    expect(rejected.json().status).toBe('SUCCEED');
    expect((await userGet('kyc/getKyc', 'zh')).basic).toMatchObject({ state: 'REJECTED', rejectReason: '证件号码与姓名不符' });
    expect((await userGet('kyc/getKyc', 'en')).basic).toMatchObject({ state: 'REJECTED', rejectReason: 'The ID number does not match the name' });
    expect((await console_.post('kyc/approve', { id: first })).json().errorCode).toBe('admin_kyc_not_pending');

    expect((await submit()).json().status).toBe('SUCCEED');
    const second = await pendingOf('BASIC');
    expect((await console_.post('kyc/approve', { id: second })).json().status).toBe('SUCCEED');
    expect(await userGet('member/getMember')).toMatchObject({ cardState: 'PASS', cardNo: `${idNumber.slice(0, 3)}***********${idNumber.slice(-4)}` });

    const audit = (await console_.get(`audit/list?userId=${user.userId}`)).json().result.rows as Array<{ action: string }>;
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(['kyc_reject', 'kyc_approve']));

    const ids = {
      frontImageId: await uploadOk(t.app, user, 'ID_FRONT'),
      backImageId: await uploadOk(t.app, user, 'ID_BACK'),
      handheldImageId: await uploadOk(t.app, user, 'ID_HANDHELD'),
    };
    expect((await t.app.inject({ method: 'POST', url: '/api/member/kyc/submitAdvanced', headers: user.headers, payload: ids })).json().status).toBe('SUCCEED');
    const adv = await pendingOf('ADVANCED');
    expect((await console_.get(`kyc/detail?id=${adv}`)).json().result.imageIds).toEqual([ids.frontImageId, ids.backImageId, ids.handheldImageId]);
    const img = await console_.get(`kyc/image?imageId=${ids.handheldImageId}`);
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await console_.post('kyc/approve', { id: adv })).json().status).toBe('SUCCEED');
    expect((await userGet('kyc/getKyc')).advanced).toMatchObject({ state: 'PASS' });
  });
});
