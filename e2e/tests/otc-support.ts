/**
 * Shared set-up of the OTC journeys (13, 13b, 13c): the envelope GET, the OTC account's USDT, a verified user (basic
 * verification approved by the demo operator through the console API) who can become a merchant, and a signed-in
 * phone page with its language and theme.
 */
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiPost, CODE_GAP_MS, freshEmail, mainlandId, outboxCode, puzzlePass, recordToasts, registerByApi } from './support';

/** The transaction password of the journeys' users. */
export const OTC_PIN = '582046';

export type Session = { token: string; userId: string };
export type OtcUser = Session & { email: string; nickName: string; paymentId: string };

/** A phone-sized page of its own browser context, signed in as `s`, in English and the day theme. */
export async function phoneAs(browser: Browser, s: Session): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-US' });
  const page = await ctx.newPage();
  await page.addInitScript(
    ([token, userId]) => {
      localStorage.setItem('token', token!);
      localStorage.setItem('userId', userId!);
      localStorage.setItem('isLogin', 'true');
      if (!localStorage.getItem('currentLangue')) localStorage.setItem('currentLangue', 'en');
      if (!localStorage.getItem('theme')) localStorage.setItem('theme', 'default');
    },
    [s.token, s.userId],
  );
  await recordToasts(page);
  return page;
}

/** Switches the page's language and theme (persisted fields of spec section 3) and reloads. */
export async function lookOf(page: Page, lang: 'en' | 'zh', theme: 'default' | 'night'): Promise<void> {
  await page.evaluate(
    ([l, th]) => {
      localStorage.setItem('currentLangue', l!);
      localStorage.setItem('theme', th!);
    },
    [lang, theme],
  );
  await page.reload();
}

/** A GET's envelope result, failing the test on FAILED. */
export async function apiGet<T>(request: APIRequestContext, url: string, headers: Record<string, string>): Promise<T> {
  const body = (await (await request.get(`/api/${url}`, { headers })).json()) as { status: string; errorCode: string; result: T };
  expect(body.status, `${url}: ${body.errorCode}`).toBe('SUCCEED');
  return body.result;
}

/** The user's USDT in the OTC account (asset/asset/getAssets); zeroes when the account has none. */
export async function otcUsdt(request: APIRequestContext, s: Session): Promise<{ available: string; frozen: string }> {
  const assets = await apiGet<{ accounts: { type: string; items: { coin: string; available: string; frozen: string }[] }[] }>(
    request,
    'asset/asset/getAssets',
    s,
  );
  const item = assets.accounts.find((a) => a.type === 'OTC')?.items.find((i) => i.coin === 'USDT');
  return { available: item?.available ?? '0.00000000', frozen: item?.frozen ?? '0.00000000' };
}

/**
 * A new user with a nickname and basic verification approved by the demo operator (`admin`: the operator's API
 * headers); with `merchant`, also the transaction password OTC_PIN, an enabled bank card `cardNo` and 2,000 USDT moved
 * from spot to the OTC account. `birth` (yyyymmdd) makes the ID number differ between journeys.
 */
export async function verifiedUser(
  request: APIRequestContext,
  admin: Record<string, string>,
  opts: { tag: string; realName: string; merchant: boolean; password: string; birth: string; cardNo: string },
): Promise<OtcUser> {
  const { tag } = opts;
  const email = freshEmail(tag);
  const s = await registerByApi(request, email, opts.password);
  const registeredAt = Date.now();
  const nickName = `${tag}${Date.now() % 1_000_000}`;
  await apiPost(request, 'member/member/setNickName', { member: s.userId, nickName }, s);
  await apiPost(
    request,
    'member/kyc/submitBasic',
    { country: 'CN', realName: opts.realName, idType: 'ID_CARD', idNumber: mainlandId(opts.birth, Date.now() % 1000) },
    s,
  );
  const queue = await apiGet<{ rows: { id: string; userId: string }[] }>(request, 'admin/kyc/list?state=PENDING&page=1&pageSize=100', admin);
  const application = queue.rows.find((r) => r.userId === s.userId);
  expect(application, 'the application in the KYC queue').toBeTruthy();
  await apiPost(request, 'admin/kyc/approve', { id: application!.id }, admin);
  if (!opts.merchant) return { ...s, email, nickName, paymentId: '' };
  await new Promise((r) => setTimeout(r, Math.max(0, registeredAt + CODE_GAP_MS - Date.now())));
  const codeAt = Date.now();
  await apiPost(request, 'data/sms/sendCode', { type: 'VERIFY', ...(await puzzlePass(request)) }, s);
  const code = await outboxCode(request, email, codeAt, s);
  await apiPost(request, 'member/security/setTransPassword', { transPassword: OTC_PIN, confirmTransPassword: OTC_PIN, verifyCode: code }, s);
  await apiPost(
    request,
    'member/payment/addPayment',
    { payType: 'BANK', bankName: 'ICBC', branch: 'Shanghai Pudong', cardNo: opts.cardNo, transPassword: OTC_PIN },
    s,
  );
  const paymentId = (await apiGet<{ id: string }[]>(request, 'member/payment/getPayments', s))[0]!.id;
  await apiPost(request, 'asset/wallet/transfer', { coin: 'USDT', from: 'SPOT', to: 'OTC', amount: '2000', clientId: `${tag}-${Date.now()}` }, s);
  return { ...s, email, nickName, paymentId };
}
