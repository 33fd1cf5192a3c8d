// Proves the API client's contract (spec sections 7-9) against a mocked fetch: URL, query and
// form encoding, headers (token/userId/lang, none on captcha URLs), FAILED -> toast + ApiError,
// the HTTP alert texts per status in zh and en, 401 and SYS.0015 session handling with the
// redirect to /login (after 0.5 s for SYS.0015), and the 60 s timeout.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// The module the app's toasts come from (shared/ui/feedback.ts loads it by its deep path).
import Toast from 'antd-mobile/es/components/toast';
import { apiGet, apiPost, ApiError, httpAlertText, REPLICA_BEHIND_RETRIES, resetToastMemory, REQUEST_TIMEOUT_MS, retryAfterMs } from './index';
import { useAppStore, useUiStore } from '../storage';
import { setNavigator } from '../navigation';
import { i18n } from '../i18n';

type Call = { url: string; init: RequestInit };
let calls: Call[] = [];
let toasts: string[] = [];
let navigations: string[] = [];

function respond(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    }),
  );
}
const ok = (result: unknown) => ({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result });
const failed = (errorCode: string, errorMessage: string) => ({ status: 'FAILED', errorCode, errorMessage, result: null });
const header = (c: Call, name: string) => (c.init.headers as Record<string, string>)[name];

beforeEach(async () => {
  calls = [];
  toasts = [];
  navigations = [];
  resetToastMemory();
  vi.spyOn(Toast, 'show').mockImplementation((p) => {
    toasts.push(typeof p === 'string' ? p : String(p.content));
    return { close: () => {} };
  });
  setNavigator((to) => navigations.push(to));
  useAppStore.setState({ token: 'tok123', userId: '42', isLogin: true, currentLangue: 'en' });
  await i18n.changeLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  setNavigator(null);
});

describe('requests', () => {
  it('GETs /api/<path> with query params and the token, userId and lang headers', async () => {
    respond(200, ok([{ id: 1 }]));
    const r = await apiGet<{ id: number }[]>('data/data/getIndexCoin', { getCoinType: 'TOP', skip: undefined });
    expect(r).toEqual([{ id: 1 }]);
    expect(calls[0]!.url).toBe('/api/data/data/getIndexCoin?getCoinType=TOP');
    expect(calls[0]!.init.method).toBe('GET');
    expect(header(calls[0]!, 'token')).toBe('tok123');
    expect(header(calls[0]!, 'userId')).toBe('42');
    expect(header(calls[0]!, 'lang')).toBe('en');
  });

  it('POSTs a form-encoded body', async () => {
    respond(200, ok(null));
    await apiPost('member/member/setNickName', { member: '42', nickName: 'Alice B' });
    expect(calls[0]!.init.method).toBe('POST');
    expect(String(calls[0]!.init.body)).toBe('member=42&nickName=Alice+B');
    expect(header(calls[0]!, 'Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
  });

  it('sends no token or userId with captcha URLs', async () => {
    respond(200, ok({ challenge: 'c' }));
    await apiPost('data/sms/geetestCode', {}, { query: { randomCode: 'abc', clientType: 'h5' } });
    expect(calls[0]!.url).toBe('/api/data/sms/geetestCode?randomCode=abc&clientType=h5');
    expect(header(calls[0]!, 'token')).toBeUndefined();
    expect(header(calls[0]!, 'userId')).toBeUndefined();
  });
});

describe('errors', () => {
  it('toasts errorMessage of a FAILED answer and throws ApiError with its code', async () => {
    respond(400, failed('insufficient_balance', 'Insufficient balance'));
    const e = await apiPost('entrust/entrust/setEntrust', {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('insufficient_balance');
    expect(toasts).toEqual(['Insufficient balance']);
    expect(useAppStore.getState().isLogin).toBe(true);
  });

  it('does not toast when silent', async () => {
    respond(400, failed('x', 'Nope'));
    await expect(apiGet('a', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([]);
  });

  it('shows the HTTP alert of the status when there is no envelope', async () => {
    respond(502, '<html>bad gateway</html>');
    const e = (await apiGet('a').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('HTTP_502');
    expect(toasts).toEqual(['Network error']);
  });

  it('sends a GET answered 503 replica_behind again after Retry-After, without a toast, and takes the fresh answer', async () => {
    const answers = [
      new Response(JSON.stringify(failed('replica_behind', 'Catching up')), { status: 503, headers: { 'retry-after': '0' } }),
      new Response(JSON.stringify(ok({ open: 1 })), { status: 200 }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return answers.shift()!;
      }),
    );
    expect(await apiGet('entrust/entrust/getEntrustList', { type: 'current' })).toEqual({ open: 1 });
    expect(calls.map((c) => c.url)).toEqual(['/api/entrust/entrust/getEntrustList?type=current', '/api/entrust/entrust/getEntrustList?type=current']);
    expect(toasts).toEqual([]);
  });

  it('shows replica_behind once its retries are spent, and never retries a POST', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        return new Response(JSON.stringify(failed('replica_behind', 'Catching up')), { status: 503, headers: { 'retry-after': '0' } });
      }),
    );
    const e = (await apiGet('a').catch((x: unknown) => x)) as ApiError;
    expect([e.code, e.httpStatus, calls.length]).toEqual(['replica_behind', 503, 1 + REPLICA_BEHIND_RETRIES]);
    expect(toasts).toEqual(['Catching up']);
    calls = [];
    await expect(apiPost('b', {})).rejects.toMatchObject({ code: 'replica_behind' });
    expect(calls.length).toBe(1);
  });

  it('waits what Retry-After asks, 1 s when it is missing or unreadable, at most 5 s', () => {
    expect([retryAfterMs('0'), retryAfterMs('2'), retryAfterMs(null), retryAfterMs('soon'), retryAfterMs('60')]).toEqual([0, 2000, 1000, 1000, 5000]);
  });

  it('reports a failed connection', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const e = (await apiGet('a').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('NETWORK');
    expect(toasts).toEqual(['Connection to the server failed']);
  });

  it('has an alert text for every status of spec section 8, in both languages', async () => {
    const en = [400, 401, 403, 404, 405, 408, 500, 501, 502, 503, 504, 505].map((s) => httpAlertText(s));
    expect(en).toEqual([
      'Bad request',
      'Authorization expired, please log in again',
      'Access denied',
      'Resource not found',
      'Method not allowed',
      'Request timeout',
      'Server error',
      'Not implemented',
      'Network error',
      'Service unavailable',
      'Network timeout',
      'HTTP version not supported',
    ]);
    expect(httpAlertText(418, "I'm a teapot")).toBe("I'm a teapot");
    expect(httpAlertText(null)).toBe('Connection to the server failed');
    await i18n.changeLanguage('zh');
    expect(httpAlertText(404)).toBe('请求的资源不存在');
    expect(httpAlertText(401)).toBe('授权已过期，请重新登录');
    expect(httpAlertText(null)).toBe('连接服务器失败');
  });

  it('times out after 60 s', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_u: string, init: RequestInit) =>
          new Promise((_res, rej) => init.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError')))),
      ),
    );
    const p = apiGet('slow').catch((x: unknown) => x);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(toasts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const e = (await p) as ApiError;
    expect(e.code).toBe('TIMEOUT');
    expect(toasts).toEqual(['Request timeout']);
  });
});

describe('session expiry', () => {
  it('HTTP 401 clears the session and goes to /login', async () => {
    vi.useFakeTimers();
    respond(401, failed('unauthorized', 'Authorization expired, please log in again'));
    const p = apiGet('member/member/getMember').catch((x: unknown) => x);
    await vi.advanceTimersByTimeAsync(1);
    expect(await p).toBeInstanceOf(ApiError);
    expect(useAppStore.getState()).toMatchObject({ token: '', userId: '', isLogin: false });
    expect(toasts).toEqual(['Authorization expired, please log in again']);
    expect(navigations).toEqual(['/login']);
  });

  it('SYS.0015 clears credentials, closes popups, toasts and redirects after 0.5 s', async () => {
    vi.useFakeTimers();
    useUiStore.setState({ sideMenuOpen: true, nicknameDialogOpen: true });
    respond(200, failed('SYS.0015', 'Login expired, please log in again'));
    const e = (await apiGet('asset/asset/getAssets').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('SYS.0015');
    expect(useAppStore.getState()).toMatchObject({ token: '', userId: '', isLogin: false });
    expect(useUiStore.getState()).toMatchObject({ sideMenuOpen: false, nicknameDialogOpen: false });
    expect(toasts).toEqual(['Login expired, please log in again']);
    await vi.advanceTimersByTimeAsync(499);
    expect(navigations).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(navigations).toEqual(['/login']);
  });

  it('SYS.0015 saying the password is wrong keeps the session', async () => {
    respond(200, failed('SYS.0015', 'The password is wrong'));
    await expect(apiPost('member/member/login', {})).rejects.toBeInstanceOf(ApiError);
    expect(useAppStore.getState().isLogin).toBe(true);
    expect(toasts).toEqual(['The password is wrong']);
    expect(navigations).toEqual([]);
  });
});
