/**
 * Proves the console's API client: requests carry x-admin-token and the UI language; a SUCCEED envelope gives its
 * result; a FAILED one throws ApiError with the server's code, message and status; a 401 forgets the session; a body
 * that is not JSON is a network error, not a crash.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './i18n';
import { ApiError, apiGet, apiPost } from './api';
import { getSession, setSession } from './session';

const operator = { id: '1', email: 'a@b.c', name: 'A', role: 'admin' as const, disabled: false, createdAt: 0 };

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

afterEach(() => vi.unstubAllGlobals());

describe('console api client', () => {
  it('sends the token and language, and unwraps the result', async () => {
    setSession({ token: 'tok', operator });
    const fetchMock = answer(200, { status: 'SUCCEED', errorCode: '0', errorMessage: '', result: [1, 2] });
    vi.stubGlobal('fetch', fetchMock);
    expect(await apiGet<number[]>('admin/user/search', { q: 'x y', empty: '', none: undefined })).toEqual([1, 2]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/admin/user/search?q=x+y');
    expect(init.headers).toMatchObject({ 'x-admin-token': 'tok' });
    expect(['zh', 'en']).toContain((init.headers as Record<string, string>).lang);
  });

  it('throws the server code and message; a 401 forgets the session', async () => {
    setSession({ token: 'tok', operator });
    vi.stubGlobal('fetch', answer(403, { status: 'FAILED', errorCode: 'admin_forbidden', errorMessage: 'Your role does not allow this action', result: null }));
    const err = await apiPost('admin/user/freeze', { userId: '1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'admin_forbidden', message: 'Your role does not allow this action', status: 403 });
    expect(getSession()).not.toBeNull();
    vi.stubGlobal('fetch', answer(401, { status: 'FAILED', errorCode: 'admin_unauthorized', errorMessage: 'expired', result: null }));
    await expect(apiGet('admin/auth/me')).rejects.toMatchObject({ code: 'admin_unauthorized', status: 401 });
    expect(getSession()).toBeNull();
  });

  it('turns a non-JSON answer into an error', async () => {
    vi.stubGlobal('fetch', answer(502, '<html>bad gateway</html>'));
    await expect(apiGet('admin/auth/me')).rejects.toMatchObject({ code: 'internal_error', status: 502 });
  });
});
