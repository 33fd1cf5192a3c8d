/**
 * Proves the security headers: every answer, API or page, carries a strict
 * Content-Security-Policy (scripts from our origin only, no inline script but the web app's boot script by the hash its
 * build names, no framing, no plugins),
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer and X-Frame-Options; no HSTS over plain HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/helpers';
import { buildScriptHashes } from './app';

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

describe("the web app's inline script", () => {
  const HASH = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";
  it('is allowed by the hash its build names (csp.json), and nothing else the file names is', async () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'web-csp-'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(web, 'csp.json'), JSON.stringify({ scriptSrc: [HASH, "'unsafe-inline'", 'https://evil.example', "'sha256-x y'", 7] }));
    const w = await makeTestApp({ webDist: web });
    try {
      const csp = String((await w.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
      const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.trim().split(/\s+/);
      expect(scriptSrc).toEqual(["'self'", HASH]);
    } finally {
      await w.close();
      fs.rmSync(web, { recursive: true, force: true });
    }
  });
  it('is not allowed without the file, or with one that is not JSON', () => {
    const web = fs.mkdtempSync(path.join(os.tmpdir(), 'web-csp-'));
    try {
      expect(buildScriptHashes(web)).toEqual([]);
      fs.writeFileSync(path.join(web, 'csp.json'), '{not json');
      expect(buildScriptHashes(web)).toEqual([]);
      fs.writeFileSync(path.join(web, 'csp.json'), JSON.stringify({ scriptSrc: HASH }));
      expect(buildScriptHashes(web)).toEqual([]);
    } finally {
      fs.rmSync(web, { recursive: true, force: true });
    }
  });
});
