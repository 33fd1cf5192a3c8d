/**
 * Proves the security headers: every answer, API or page, carries a strict
 * Content-Security-Policy (scripts from our origin only, no inline script, no framing, no plugins),
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer and X-Frame-Options; no HSTS over plain HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  for (const url of ['/healthz', '/api/data/data/getBanners', '/api/no-such-route', '/api/docs/json']) {
    it(`on ${url}`, async () => {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  }
});
