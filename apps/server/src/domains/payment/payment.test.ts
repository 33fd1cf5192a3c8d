/**
 * Proves the payment-method API through app.inject on PGlite (PostgreSQL with DATABASE_URL): every endpoint refuses
 * a user without basic verification (real_name_required); a verified user adds bank cards (Luhn, 12-19 digits,
 * bank and branch) and WeChat/Alipay accounts with their own PAY_QR upload, the holder always the verified name;
 * the transaction password is asked for saving and deleting (a wrong one saves nothing); at most 10 methods; card
 * numbers masked; and another verified user can neither see, change, enable nor delete them.
 * The transaction password is set through the security API (a VERIFY code from the demo outbox) and checked by
 * the real security service (its failure counting and lock are proven in domains/security).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { errorText } from '@exchange/api';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { paymentMethods } from './payment.tables';
import { loginUser, mainlandId, setTransPassword, uploadOk, verifyBasic, type TestUser } from '../kyc/kyc-test-support';
import { luhnValid } from './payment-rules';

const TRANS_PW = '135790';
let t: TestApp;
let alice: TestUser; // unverified
let bob: TestUser; // verified 张伟
let carol: TestUser; // verified 李娜

beforeAll(async () => {
  t = await makeTestApp(NO_RATE_LIMITS);
  alice = await loginUser(t, 'alice@payment.test');
  bob = await loginUser(t, 'bob@payment.test');
  carol = await loginUser(t, 'carol@payment.test');
  await verifyBasic(t, bob, '张伟', mainlandId('19880808', '001'));
  await verifyBasic(t, carol, '李娜', mainlandId('19920202', '002'));
  await setTransPassword(t, bob, 'bob@payment.test', TRANS_PW);
  await setTransPassword(t, carol, 'carol@payment.test', TRANS_PW);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** A Luhn-valid card number: `prefix` completed with its check digit. */
function card(prefix: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error('unreachable');
}

function post(user: TestUser, action: string, body: Record<string, string | boolean>, lang: 'zh' | 'en' = 'en') {
  return t.app.inject({ method: 'POST', url: `/api/member/payment/${action}`, headers: { ...user.headers, lang }, payload: body });
}
async function list(user: TestUser) {
  const res = await t.app.inject({ method: 'GET', url: '/api/member/payment/getPayments', headers: { ...user.headers, lang: 'en' } });
  expect(res.json().status).toBe('SUCCEED');
  return res.json().result as Array<Record<string, unknown>>;
}
function expectFail(res: { statusCode: number; json(): unknown }, code: string, field?: string, status = 400, lang: 'zh' | 'en' = 'en'): void {
  expect(res.json()).toEqual({ status: 'FAILED', errorCode: code, errorMessage: errorText(code, lang, field), result: null });
  expect(res.statusCode).toBe(status);
}
async function rows(userId: string): Promise<number> {
  const [r] = await t.ctx.db
    .select({ n: count() })
    .from(paymentMethods)
    .where(eq(paymentMethods.userId, BigInt(userId)));
  return Number(r!.n);
}

const BANK = { payType: 'BANK', bankName: '中国工商银行', branch: '北京分行 (海淀支行)', cardNo: card('622202123456789012'), transPassword: TRANS_PW };

describe('without basic verification', () => {
  it('every endpoint answers real_name_required in zh and en', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const get = await t.app.inject({ method: 'GET', url: '/api/member/payment/getPayments', headers: { ...alice.headers, lang } });
      expectFail(get, 'real_name_required', undefined, 400, lang);
      expectFail(await post(alice, 'addPayment', BANK, lang), 'real_name_required', undefined, 400, lang);
      expectFail(await post(alice, 'updatePayment', { id: '1', ...BANK }, lang), 'real_name_required', undefined, 400, lang);
      expectFail(await post(alice, 'setPaymentEnabled', { id: '1', enabled: false }, lang), 'real_name_required', undefined, 400, lang);
      expectFail(await post(alice, 'deletePayment', { id: '1', transPassword: TRANS_PW }, lang), 'real_name_required', undefined, 400, lang);
    }
    expect(await rows(alice.userId)).toBe(0);
  });
});

describe('a verified user', () => {
  let bankId = '';
  let alipayId = '';

  it('adds a bank card: the holder is the verified name, the number masked but its last 4', async () => {
    const res = await post(bob, 'addPayment', { ...BANK, realName: 'Somebody Else', cardNo: `${BANK.cardNo.slice(0, 4)} ${BANK.cardNo.slice(4)}` });
    expect(res.json().status).toBe('SUCCEED');
    bankId = res.json().result.id;
    const [m] = await list(bob);
    expect(m).toEqual({
      id: bankId,
      payType: 'BANK',
      realName: '张伟',
      bankName: '中国工商银行',
      branch: '北京分行 (海淀支行)',
      cardNo: `${'*'.repeat(BANK.cardNo.length - 4)}${BANK.cardNo.slice(-4)}`,
      account: '',
      enabled: true,
      createdAt: expect.any(Number),
    });
  });

  it('refuses bad card numbers, missing bank names, a wrong transaction password: nothing saved', async () => {
    const before = await rows(bob.userId);
    const wrongCheck = `${BANK.cardNo.slice(0, -1)}${(Number(BANK.cardNo.slice(-1)) + 1) % 10}`;
    for (const cardNo of [wrongCheck, '12345678901', card('1234567890123456789'), '6222abcd12345678', '６２２２０２１２３４５６７８９０']) {
      expectFail(await post(bob, 'addPayment', { ...BANK, cardNo }), 'bank_card_invalid', 'cardNo');
    }
    expectFail(await post(bob, 'addPayment', { ...BANK, bankName: ' ' }), 'bank_name_required', 'bankName');
    expectFail(await post(bob, 'addPayment', { ...BANK, branch: '' }), 'bank_name_required', 'branch');
    expectFail(await post(bob, 'addPayment', { ...BANK, bankName: '<script>alert(1)</script>' }), 'invalid_characters', 'bankName');
    expectFail(await post(bob, 'addPayment', { ...BANK, transPassword: '000000' }), 'trans_password_wrong', 'transPassword');
    expect(await rows(bob.userId)).toBe(before);
  });

  it('adds WeChat and Alipay accounts with their own PAY_QR upload only', async () => {
    const qr = await uploadOk(t.app, bob, 'PAY_QR');
    const idPhoto = await uploadOk(t.app, bob, 'ID_FRONT');
    const carolsQr = await uploadOk(t.app, carol, 'PAY_QR');
    const before = await rows(bob.userId);
    expectFail(await post(bob, 'addPayment', { payType: 'ALIPAY', account: 'bob@alipay.test', transPassword: TRANS_PW }), 'pay_qr_required', 'qrImageId');
    expectFail(
      await post(bob, 'addPayment', { payType: 'ALIPAY', account: 'bob@alipay.test', qrImageId: idPhoto, transPassword: TRANS_PW }),
      'pay_qr_required',
      'qrImageId',
    );
    expectFail(
      await post(bob, 'addPayment', { payType: 'ALIPAY', account: 'bob@alipay.test', qrImageId: carolsQr, transPassword: TRANS_PW }),
      'pay_qr_required',
      'qrImageId',
    );
    expectFail(await post(bob, 'addPayment', { payType: 'WECHAT', account: 'a b', qrImageId: qr, transPassword: TRANS_PW }), 'pay_account_invalid', 'account');
    expect(await rows(bob.userId)).toBe(before);
    const ali = await post(bob, 'addPayment', { payType: 'ALIPAY', account: 'bob@alipay.test', qrImageId: qr, transPassword: TRANS_PW });
    expect(ali.json().status).toBe('SUCCEED');
    alipayId = ali.json().result.id;
    const wx = await post(bob, 'addPayment', { payType: 'WECHAT', account: 'bob_wx-01', qrImageId: qr, transPassword: TRANS_PW });
    expect(wx.json().status).toBe('SUCCEED');
    const all = await list(bob);
    expect(all.map((m) => [m.payType, m.realName, m.account, m.qrImageId ?? null, m.cardNo])).toEqual([
      ['BANK', '张伟', '', null, expect.stringMatching(/^\*+[0-9]{4}$/)],
      ['ALIPAY', '张伟', 'bob@alipay.test', qr, ''],
      ['WECHAT', '张伟', 'bob_wx-01', qr, ''],
    ]);
  });

  it('updates, disables and enables its own methods', async () => {
    expectFail(
      await post(bob, 'updatePayment', { id: bankId, ...BANK, bankName: '招商银行', transPassword: '111111' }),
      'trans_password_wrong',
      'transPassword',
    );
    expect((await post(bob, 'updatePayment', { id: bankId, ...BANK, bankName: '招商银行', cardNo: '' })).json().status).toBe('SUCCEED');
    const kept = await t.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, BigInt(bankId)));
    expect(kept[0]!.cardNo).toBe(BANK.cardNo); // an empty number keeps the stored one (the app shows it masked)
    expectFail(
      await post(bob, 'updatePayment', { id: alipayId, payType: 'BANK', bankName: '招商银行', branch: '深圳分行', cardNo: '', transPassword: TRANS_PW }),
      'bank_card_invalid',
      'cardNo',
    );
    expect((await post(bob, 'setPaymentEnabled', { id: alipayId, enabled: false })).json().status).toBe('SUCCEED');
    const all = await list(bob);
    expect(all.find((m) => m.id === bankId)).toMatchObject({ bankName: '招商银行', enabled: true });
    expect(all.find((m) => m.id === alipayId)).toMatchObject({ enabled: false });
    expect((await post(bob, 'setPaymentEnabled', { id: alipayId, enabled: 'true' })).json().status).toBe('SUCCEED');
    expect((await list(bob)).find((m) => m.id === alipayId)).toMatchObject({ enabled: true });
  });

  it('another user can neither see, change, enable nor delete them', async () => {
    const before = await list(bob);
    expect(await list(carol)).toEqual([]);
    expectFail(await post(carol, 'updatePayment', { id: bankId, ...BANK, bankName: '被篡改' }), 'payment_not_found', undefined, 404);
    expectFail(await post(carol, 'setPaymentEnabled', { id: bankId, enabled: false }), 'payment_not_found', undefined, 404);
    expectFail(await post(carol, 'deletePayment', { id: bankId, transPassword: TRANS_PW }), 'payment_not_found', undefined, 404);
    for (const id of ['0', '999999', '9223372036854775808'])
      expectFail(await post(bob, 'deletePayment', { id, transPassword: TRANS_PW }), 'payment_not_found', undefined, 404);
    expect(await list(bob)).toEqual(before);
  });

  it('deletes with the transaction password only', async () => {
    expectFail(await post(bob, 'deletePayment', { id: alipayId, transPassword: '999999' }), 'trans_password_wrong', 'transPassword');
    expect((await list(bob)).some((m) => m.id === alipayId)).toBe(true);
    expect((await post(bob, 'deletePayment', { id: alipayId, transPassword: TRANS_PW })).json().status).toBe('SUCCEED');
    expect((await list(bob)).some((m) => m.id === alipayId)).toBe(false);
    expectFail(await post(bob, 'deletePayment', { id: alipayId, transPassword: TRANS_PW }), 'payment_not_found', undefined, 404);
  });

  it('keeps at most 10 methods, also when added at once', async () => {
    const adds = Array.from({ length: 12 }, (_, i) => post(carol, 'addPayment', { ...BANK, cardNo: card(`62220200000000${String(i).padStart(4, '0')}`) }));
    const answers = (await Promise.all(adds)).map((r) => r.json().errorCode as string);
    expect(answers.filter((c) => c === '0')).toHaveLength(10);
    expect(answers.filter((c) => c === 'payment_limit')).toHaveLength(2);
    expect(await rows(carol.userId)).toBe(10);
  });
});
