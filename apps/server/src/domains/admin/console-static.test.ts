/**
 * Proves how the operator console's build (apps/admin/dist, config adminDist) is served beside the web app: its hashed
 * assets under /admin/assets/ with the immutable cache, index.html for /admin/ and every console route (a single-page
 * app), /admin redirected to /admin/, a file written after start served (a rebuilt console needs no restart), the app's CSP on the page (scripts only from our origin, never inline), a
 * missing console file a 404, and the web app still answering its own routes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../../test/helpers';

let web: string;
let admin: string;
let t: TestApp;

beforeAll(async () => {
  web = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-web-'));
  admin = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-admin-'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>app</title>');
  fs.mkdirSync(path.join(admin, 'assets'));
  fs.writeFileSync(
    path.join(admin, 'index.html'),
    '<!doctype html><title>console</title><script type="module" src="/admin/assets/index-AbCd12_-.js"></script>',
  );
  fs.writeFileSync(path.join(admin, 'assets', 'index-AbCd12_-.js'), 'export const console = 1;\n');
  t = await makeTestApp({ webDist: web, adminDist: admin });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(web, { recursive: true, force: true });
  fs.rmSync(admin, { recursive: true, force: true });
});

describe('console build', () => {
  it('serves the page for /admin/ and its routes, never cached, under the CSP', async () => {
    for (const url of ['/admin/', '/admin/login', '/admin/users/12', '/admin/kyc?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    }
    const bare = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/admin/');
  });

  it('serves hashed assets immutable; a missing file is a 404; the web app keeps its routes', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/admin/assets/index-AbCd12_-.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/admin/assets/gone-AbCd12_-.js' })).statusCode).toBe(404);
    // A console rebuilt while the server runs is served at once (files are looked up per request).
    fs.writeFileSync(path.join(admin, 'assets', 'later-XyZw3456.js'), 'export const later = 2;\n');
    expect((await t.app.inject({ method: 'GET', url: '/admin/assets/later-XyZw3456.js' })).statusCode).toBe(200);
    const app = await t.app.inject({ method: 'GET', url: '/trade' });
    expect(app.body).toContain('<title>app</title>');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/nope' })).json()).toMatchObject({ status: 'FAILED', errorCode: 'not_found' });
  });
});
