/**
 * Proves how the web build is served: a hashed asset goes out pre-compressed (brotli when the
 * browser takes it, else gzip, else plain) with a one-year immutable cache and `Vary: Accept-Encoding`; files
 * without a hash are cached for an hour; the page (index.html, also for app routes) is never cached; a missing
 * asset is a 404, not the page; the service worker and the manifest are revalidated each time; a build deployed under
 * the running server is served at once (its page and its new chunks).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/helpers';
import { HASHED_ASSET_RE } from './app';

const JS = 'export const answer = 42;\n'.repeat(200);
let web: string;
let t: TestApp;

beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-web-'));
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>app</title><div id="root"></div>');
  fs.writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(web, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  fs.writeFileSync(path.join(web, 'manifest.webmanifest'), '{"name":"Exchange"}');
  const js = path.join(web, 'assets', 'index-AbCd12_-.js');
  fs.writeFileSync(js, JS);
  fs.writeFileSync(`${js}.br`, brotliCompressSync(JS));
  fs.writeFileSync(`${js}.gz`, gzipSync(JS));
  t = await makeTestApp({ webDist: web });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('web build', () => {
  it('revalidates the PWA service worker and manifest on every check', async () => {
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(String(sw.headers['content-type'])).toMatch(/javascript/);
    const mf = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(mf.statusCode).toBe(200);
    expect(mf.headers['cache-control']).toBe('no-cache');
    expect(String(mf.headers['content-type'])).toMatch(/manifest\+json/);
  });

  it('recognises hashed asset file names', () => {
    expect(HASHED_ASSET_RE.test('/srv/web/assets/index-AbCd12_-.js')).toBe(true);
    expect(HASHED_ASSET_RE.test('/srv/web/assets/chunk-6KYCQHYJ-B5Oe7nNk.js.br')).toBe(true);
    expect(HASHED_ASSET_RE.test('/srv/web/favicon.svg')).toBe(false);
    expect(HASHED_ASSET_RE.test('/srv/web/version.json')).toBe(false);
    expect(HASHED_ASSET_RE.test('/srv/web/assets/logo.svg')).toBe(false);
  });

  for (const [accept, encoding] of [
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['identity', undefined],
  ] as const) {
    it(`sends a hashed asset ${encoding ?? 'uncompressed'} for Accept-Encoding "${accept}", cached for a year`, async () => {
      const res = await t.app.inject({ method: 'GET', url: '/assets/index-AbCd12_-.js', headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(String(res.headers['content-type'])).toMatch(/javascript/);
      const body = res.rawPayload;
      const plain = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
      expect(plain.toString()).toBe(JS);
      if (encoding) expect(body.length).toBeLessThan(JS.length / 10);
    });
  }

  it('caches a file without a hash for an hour', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('never caches the page, at / or at an app route', async () => {
    for (const url of ['/', '/quotes', '/no/such/page']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(String(res.headers['content-type']), url).toMatch(/text\/html/);
      expect(String(res.headers['cache-control']), url).toMatch(/no-cache|max-age=0/);
    }
  });

  it('serves a build deployed under the running server: its new page and its new chunks', async () => {
    const next = 'export const next = 1;\n';
    fs.writeFileSync(path.join(web, 'assets', 'index-NeW98765.js'), next);
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><script type="module" src="/assets/index-NeW98765.js"></script>');
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).toContain('index-NeW98765.js');
    const chunk = await t.app.inject({ method: 'GET', url: '/assets/index-NeW98765.js', headers: { 'accept-encoding': 'identity' } });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.body).toBe(next);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Its compressed copy as for a listed file; a dot-directory the build writes (Vite's manifest) is not served.
    fs.writeFileSync(path.join(web, 'assets', 'index-NeW98765.js.br'), brotliCompressSync(next));
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-NeW98765.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(next);
    fs.mkdirSync(path.join(web, '.vite'));
    fs.writeFileSync(path.join(web, '.vite', 'manifest.json'), '{}');
    for (const url of ['/.vite/manifest.json', '/assets/../.vite/manifest.json', '/assets/%2e%2e/.vite/manifest.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.body, url).not.toBe('{}');
    }
  });

  it('answers 404 for a missing asset, not the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-OldHash1.js' });
    expect(res.statusCode).toBe(404);
    expect(String(res.headers['content-type'])).not.toMatch(/text\/html/);
  });
});
