/**
 * The console's API client: `/api/admin/...` with the header x-admin-token and the UI language (`lang`), answers
 * unwrapped from the envelope. A FAILED envelope throws ApiError with the server's code and its message in the UI
 * language; a 401 also clears the session (the router then shows the login page).
 */
import i18n from 'i18next';
import { clearSession, getSession } from './session';

/** A FAILED answer: the server's error code, its message (already in the UI language) and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | undefined>;

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = { lang: i18n.language === 'en' ? 'en' : 'zh' };
  const s = getSession();
  if (s) h['x-admin-token'] = s.token;
  if (json) h['content-type'] = 'application/json';
  return h;
}

function url(path: string, query?: Query): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return `/api/${path}${qs ? `?${qs}` : ''}`;
}

async function unwrap<T>(res: Response): Promise<T> {
  let body: { status?: string; errorCode?: string; errorMessage?: string; result?: T } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new ApiError('internal_error', i18n.t('errors.network'), res.status);
  }
  if (res.status === 401) clearSession();
  if (body.status !== 'SUCCEED') throw new ApiError(body.errorCode ?? 'internal_error', body.errorMessage || i18n.t('errors.network'), res.status);
  return body.result as T;
}

/** GET /api/<path>?<query>; the result of the envelope. */
export async function apiGet<T>(path: string, query?: Query): Promise<T> {
  return unwrap<T>(await fetch(url(path, query), { headers: headers(false) }));
}

/** POST /api/<path> with a JSON body; the result of the envelope. */
export async function apiPost<T>(path: string, body: Record<string, unknown> = {}): Promise<T> {
  return unwrap<T>(await fetch(url(path), { method: 'POST', headers: headers(true), body: JSON.stringify(body) }));
}

/** GET of a binary answer (a KYC image) as an object URL; the caller revokes it. */
export async function apiBlobUrl(path: string, query?: Query): Promise<string> {
  const res = await fetch(url(path, query), { headers: headers(false) });
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('json')) return unwrap<never>(res);
  return URL.createObjectURL(await res.blob());
}

/** POST /api/<path> with a multipart body (an image upload); the result of the envelope. */
export async function apiPostForm<T>(path: string, form: FormData): Promise<T> {
  return unwrap<T>(await fetch(url(path), { method: 'POST', headers: headers(false), body: form }));
}
