/**
 * The app shell: health, the 404 envelope in both languages, the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('app shell', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });
  it('answers unknown API paths with a FAILED 404 envelope in the request language', async () => {
    const en = await t.app.inject({ url: '/api/nope/nope/nope', headers: { lang: 'en' } });
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ status: 'FAILED', errorCode: 'not_found', errorMessage: 'Resource not found', result: null });
    const zh = await t.app.inject({ url: '/api/nope', headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(zh.json().errorMessage).toBe('资源不存在');
  });
  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await t.app.inject('/api/docs/json');
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });
});
