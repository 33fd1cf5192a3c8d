/**
 * Fetch-based client of the app API (spec sections 7-9, ARCHITECTURE.md section 7).
 * - base /api/; GET sends query params, POST sends a form-encoded body (URLSearchParams);
 * - headers token, userId (from the store; not on captcha URLs) and lang (current language);
 * - timeout 60 s;
 * - a GET that public/boot.js made already (the home banners) takes its answer instead (early.ts);
 * - answers are the envelope { status, errorCode, errorMessage, result }: SUCCEED resolves with
 *   `result`, FAILED shows errorMessage as a toast and throws ApiError(errorCode);
 * - a GET answered 503 `replica_behind` (a scale-out gateway whose copy of the engine has not yet caught up with a
 *   change already confirmed, ARCHITECTURE.md section 4) is sent again after the answer's Retry-After, up to
 *   REPLICA_BEHIND_RETRIES times, before its message is shown: the next answer is as fresh, never older;
 * - HTTP failures show the alert of spec section 8 for the status; 401 clears the session and goes
 *   to /login; errorCode SYS.0015 (session expired) clears credentials, closes popups, toasts
 *   'login expired, please log in again' and goes to /login after 0.5 s, unless the message says
 *   the password is wrong.
 */
import type { EnvelopeOf } from '@exchange/api';
import { useAppStore, useUiStore } from '../storage';
import { navigateTo } from '../navigation';
import { t } from '../i18n';
import { ApiError } from './api-error';
import { httpAlertText, showToast } from './alerts';
import { withFeedback } from '../ui/feedback';
import { takeEarlyResponse } from './early';
import { API_ORIGIN } from '../origin';

/** Base path of the API (spec section 9); on the server's origin in a native shell build (shared/origin.ts). */
export const API_BASE = `${API_ORIGIN}/api/`;
/** Request timeout of the spec (section 9), ms. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** Delay before the redirect to /login after SYS.0015 (spec section 4), ms. */
export const SESSION_EXPIRED_REDIRECT_MS = 500;

/** How many times a GET answered 503 replica_behind is sent again before the error is shown. */
export const REPLICA_BEHIND_RETRIES = 2;
/** Longest Retry-After honoured before sending such a GET again, ms. */
const MAX_RETRY_AFTER_MS = 5_000;

/** The wait a 503 answer asks for (Retry-After in seconds; 1 s when absent or unreadable), at most 5 s, ms. */
export function retryAfterMs(value: string | null): number {
  const seconds = value !== null && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : 1;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}

/** Query or form values; undefined and null are skipped, arrays repeat the key. */
export type Params = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

/** Per-call options. */
export interface RequestOptions {
  /** Do not toast FAILED answers or HTTP alerts (the caller shows its own message). */
  silent?: boolean;
  /** Overrides the 60 s timeout. */
  timeoutMs?: number;
  /** Cancels the request (TanStack Query passes one). */
  signal?: AbortSignal;
  /** Query params of a POST (e.g. geetestCode?randomCode=..). */
  query?: Params;
}

function toSearchParams(params: Params | undefined): URLSearchParams {
  const sp = new URLSearchParams();
  if (!params) return sp;
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, String(v));
  }
  return sp;
}

/** Captcha URLs go without token and userId headers (spec section 7). */
function isCaptchaPath(path: string): boolean {
  return /^data\/sms\/geetest/.test(path);
}

function buildUrl(path: string, query?: Params): string {
  const clean = path.replace(/^\/+/, '').replace(/^api\//, '');
  const qs = toSearchParams(query).toString();
  return API_BASE + clean + (qs ? `?${qs}` : '');
}

function headersFor(path: string): Record<string, string> {
  const { token, userId, currentLangue } = useAppStore.getState();
  const h: Record<string, string> = { lang: currentLangue, Accept: 'application/json' };
  if (!isCaptchaPath(path)) {
    if (token) h.token = token;
    if (userId) h.userId = userId;
  }
  return h;
}

let redirecting = false;

/** Whether a SYS.0015 message actually reports a wrong password (then the session is kept). */
export function saysPasswordWrong(message: string): boolean {
  return /密码(错误|不正确)|password.*(wrong|incorrect|invalid)|(wrong|incorrect|invalid).*password/i.test(message);
}

/** Clears the session and closes popups; shared by 401, SYS.0015 and logout. */
export function endSession(): void {
  useAppStore.getState().clearSession();
  useUiStore.getState().closeAllOverlays();
  withFeedback(({ Dialog, Modal }) => {
    Dialog.clear();
    Modal.clear();
  });
}

function goLogin(delayMs: number): void {
  if (redirecting) return;
  redirecting = true;
  setTimeout(() => {
    redirecting = false;
    if (window.location.pathname !== '/login') navigateTo('/login', { replace: true });
  }, delayMs);
}

/** Session expired by errorCode SYS.0015 (spec sections 4 and 8). */
function handleSessionExpired(message: string, silent: boolean): void {
  if (saysPasswordWrong(message)) {
    if (!silent) showToast(message);
    return;
  }
  endSession();
  showToast(t('errors:loginExpired'));
  goLogin(SESSION_EXPIRED_REDIRECT_MS);
}

/** HTTP 401 (spec section 8): alert, clear the session, go to /login. */
function handleUnauthorized(): void {
  endSession();
  showToast(httpAlertText(401));
  goLogin(0);
}

function isEnvelope(x: unknown): x is EnvelopeOf<unknown> {
  return !!x && typeof x === 'object' && 'status' in x && ((x as { status: unknown }).status === 'SUCCEED' || (x as { status: unknown }).status === 'FAILED');
}

async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  params: Params | undefined,
  opts: RequestOptions = {},
  replicaRetries = REPLICA_BEHIND_RETRIES,
): Promise<T> {
  const silent = !!opts.silent;
  const url = method === 'GET' ? buildUrl(path, params) : buildUrl(path, opts.query);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort);

  const headers = headersFor(path);
  let body: URLSearchParams | undefined;
  if (method === 'POST') {
    body = toSearchParams(params);
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  }

  let res: Response;
  try {
    // The home banners may have been requested by public/boot.js before this code loaded (early.ts).
    const early = method === 'GET' ? takeEarlyResponse(url) : undefined;
    res = (early && (await early.catch(() => null))) || (await fetch(url, { method, headers, body, signal: controller.signal }));
  } catch (e) {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    if (timedOut) {
      const msg = httpAlertText(408);
      if (!silent) showToast(msg);
      throw new ApiError('TIMEOUT', msg, null);
    }
    if (opts.signal?.aborted) throw e;
    const msg = httpAlertText(null);
    if (!silent) showToast(msg);
    throw new ApiError('NETWORK', msg, null);
  }
  clearTimeout(timer);
  opts.signal?.removeEventListener('abort', onAbort);

  let json: unknown = null;
  try {
    const text = await res.text();
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  const env = isEnvelope(json) ? json : null;

  if (method === 'GET' && res.status === 503 && env?.errorCode === 'replica_behind' && replicaRetries > 0) {
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs(res.headers.get('retry-after'))));
    if (opts.signal?.aborted) throw new DOMException('The request was aborted', 'AbortError');
    return request<T>(method, path, params, opts, replicaRetries - 1);
  }

  if (env && env.errorCode === 'SYS.0015') {
    handleSessionExpired(env.errorMessage, silent);
    throw new ApiError('SYS.0015', env.errorMessage || t('errors:loginExpired'), res.status);
  }
  if (res.status === 401) {
    handleUnauthorized();
    throw new ApiError(env?.errorCode || 'HTTP_401', httpAlertText(401), 401);
  }
  if (env && env.status === 'FAILED') {
    const msg = env.errorMessage || httpAlertText(res.ok ? null : res.status);
    if (!silent) showToast(msg);
    throw new ApiError(env.errorCode || `HTTP_${res.status}`, msg, res.status);
  }
  if (!res.ok || !env) {
    const msg = httpAlertText(res.ok ? 500 : res.status, res.statusText);
    if (!silent) showToast(msg);
    throw new ApiError(res.ok ? 'PARSE' : `HTTP_${res.status}`, msg, res.status);
  }
  return env.result as T;
}

/** GET `/api/<path>?<query>`; resolves with the envelope's result or throws ApiError. */
export function apiGet<T>(path: string, query?: Params, opts?: RequestOptions): Promise<T> {
  return request<T>('GET', path, query, opts);
}

/** POST `/api/<path>` with a form-encoded `body`; resolves with the result or throws ApiError. */
export function apiPost<T>(path: string, body?: Params, opts?: RequestOptions): Promise<T> {
  return request<T>('POST', path, body, opts);
}
