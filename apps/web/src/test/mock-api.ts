/**
 * A fetch stub for page tests: answers `/api/<path>` with the envelope of `routes[path]` (a value, or a function of
 * the form body returning one; an `{ errorCode }` object answers FAILED) and records every call (path, method,
 * form fields), so a test asserts what the page sent.
 */
import { vi } from 'vitest';

/** A FAILED answer of the stub. */
export interface Failed {
  errorCode: string;
  errorMessage?: string;
}

/** What a route of the stub answers: a result, FAILED, or a function of the form fields returning either. */
export type MockAnswer = unknown | Failed | ((form: Record<string, string>) => unknown);

/** One recorded call. */
export interface MockCall {
  path: string;
  method: string;
  form: Record<string, string>;
}

/** True when `x` is a FAILED answer. */
function isFailed(x: unknown): x is Failed {
  return !!x && typeof x === 'object' && 'errorCode' in x;
}

/** Installs the stub; returns the list of calls made. Unknown paths answer HTTP 404. */
export function mockApi(routes: Record<string, MockAnswer>): MockCall[] {
  const calls: MockCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const path = url.pathname.replace(/^\/api\//, '');
      const form: Record<string, string> = {};
      if (init?.body instanceof URLSearchParams) for (const [k, v] of init.body) form[k] = v;
      for (const [k, v] of url.searchParams) form[k] = v;
      calls.push({ path, method: init?.method ?? 'GET', form });
      if (!(path in routes)) return new Response('{}', { status: 404 });
      const route = routes[path];
      const answer = typeof route === 'function' ? (route as (f: Record<string, string>) => unknown)(form) : route;
      const body = isFailed(answer)
        ? { status: 'FAILED', errorCode: answer.errorCode, errorMessage: answer.errorMessage ?? answer.errorCode, result: null }
        : { status: 'SUCCEED', errorCode: '', errorMessage: '', result: answer };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}
