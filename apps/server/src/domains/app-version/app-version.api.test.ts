/**
 * Proves the app version API through app.inject on PGlite (PostgreSQL with DATABASE_URL): before any publication
 * the check answers no update; an admin publishes android 1.2.0 with reasons in both languages and the check of a
 * 1.1.9 app offers it (reasons split per line, blank lines dropped) while 1.2.0 and 1.3.0 apps are told they are up
 * to date; a lower or equal version is refused (app_version_not_newer) in the caller's language, a support operator
 * may list but not publish (403), a web version may not carry a bundle; a shell version with a bundle packages the
 * server's web build (a zip whose sha256 is announced and whose files are the build's, without .br/.gz and .vite)
 * served by app/version/bundle; a withdrawal stops the offer and is refused twice; each publish and withdraw writes
 * exactly one audit row naming the operator and the version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { unzipSync, strFromU8 } from 'fflate';
import { sql } from 'drizzle-orm';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { versionOrder } from './app-version.semver';
import { reasonLines } from './app-version.service';

let t: TestApp;
let adminToken = '';
let supportToken = '';
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'app-version-web-'));

async function operatorToken(role: 'admin' | 'support'): Promise<string> {
  const email = `${role}@app-version.test`;
  const c = await t.ctx.admin.createOperator(null, { email, name: role, role });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/auth/login',
    payload: { email, password: c.password, totp: await generate({ secret: c.totpSecret }) },
  });
  expect(res.json().status).toBe('SUCCEED');
  return res.json().result.token as string;
}

function publish(token: string, body: Record<string, unknown>, lang = 'en') {
  return t.app.inject({ method: 'POST', url: '/api/admin/appVersion/publish', headers: { 'x-admin-token': token, lang }, payload: body });
}

async function latest(platform: string, current: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/app/version/latest?platform=${platform}&current=${current}` });
  expect(res.statusCode).toBe(200);
  return res.json().result as {
    latest: null | {
      id: string;
      version: string;
      reasonsZh: string[];
      reasonsEn: string[];
      force: boolean;
      bundle: null | { url: string; sha256: string; sizeBytes: number };
    };
    updateAvailable: boolean;
  };
}

async function auditRows(action: string): Promise<Array<{ operator_email: string; after: { version: string } | null; before: unknown }>> {
  const r = (await t.ctx.db.execute(sql`SELECT operator_email, before, after FROM audit_log WHERE action = ${action} ORDER BY id`)) as {
    rows: Array<{ operator_email: string; after: { version: string } | null; before: unknown }>;
  };
  return r.rows;
}

beforeAll(async () => {
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>app</title>');
  fs.mkdirSync(path.join(web, 'assets'));
  fs.mkdirSync(path.join(web, '.vite'));
  fs.writeFileSync(path.join(web, 'assets', 'index-abc.js'), 'console.log(1)'.repeat(200));
  fs.writeFileSync(path.join(web, 'assets', 'index-abc.js.gz'), 'gz');
  fs.writeFileSync(path.join(web, 'assets', 'index-abc.js.br'), 'br');
  fs.writeFileSync(path.join(web, '.vite', 'manifest.json'), '{}');
  t = await makeTestApp({ ...NO_RATE_LIMITS, webDist: web });
  adminToken = await operatorToken('admin');
  supportToken = await operatorToken('support');
}, 60_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('versions', () => {
  it('orders versions part by part and splits reasons per line', () => {
    expect(versionOrder('1.2.3')).toBe(100_020_003);
    expect(versionOrder('1.10.0')! > versionOrder('1.9.99')!).toBe(true);
    expect(versionOrder('9999.9999.9999')).toBe(999_999_999_999);
    for (const bad of ['1.2', '01.2.3', '1.2.3.4', '10000.0.0', '-1.0.0', '1.2.x', '']) expect(versionOrder(bad)).toBeNull();
    expect(reasonLines(' a \r\n\n b\n  ')).toEqual(['a', 'b']);
  });
});

describe('app version API', () => {
  it('offers nothing before a publication', async () => {
    expect(await latest('android', '1.0.0')).toEqual({ latest: null, updateAvailable: false });
  });

  it('publishes a version and offers it to older apps only', async () => {
    const res = await publish(adminToken, {
      platform: 'android',
      version: '1.2.0',
      reasonsZh: '修复了行情刷新\n\n新增邀请海报',
      reasonsEn: 'Fixed the quotes refresh\n\nNew invitation poster',
      force: false,
    });
    expect(res.json().status).toBe('SUCCEED');
    expect(res.json().result).toMatchObject({ platform: 'android', version: '1.2.0', bundle: null, withdrawnAt: 0 });
    const older = await latest('android', '1.1.9');
    expect(older.updateAvailable).toBe(true);
    expect(older.latest).toMatchObject({
      version: '1.2.0',
      reasonsZh: ['修复了行情刷新', '新增邀请海报'],
      reasonsEn: ['Fixed the quotes refresh', 'New invitation poster'],
      force: false,
    });
    expect((await latest('android', '1.2.0')).updateAvailable).toBe(false);
    expect((await latest('android', '1.3.0')).updateAvailable).toBe(false);
    // other platforms are separate
    expect(await latest('ios', '0.0.1')).toEqual({ latest: null, updateAvailable: false });
    const rows = await auditRows('app_version_publish');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operator_email: 'admin@app-version.test', before: null, after: { version: '1.2.0' } });
  });

  it('refuses a version not higher than the latest, in the caller’s language', async () => {
    for (const version of ['1.2.0', '1.1.99', '0.9.0']) {
      const en = await publish(adminToken, { platform: 'android', version, reasonsZh: '原因', reasonsEn: 'reason' });
      expect(en.statusCode).toBe(400);
      expect(en.json()).toMatchObject({
        status: 'FAILED',
        errorCode: 'app_version_not_newer',
        errorMessage: 'The version must be higher than the latest one published for this platform',
      });
    }
    const zh = await publish(adminToken, { platform: 'android', version: '1.0.0', reasonsZh: '原因', reasonsEn: 'reason' }, 'zh');
    expect(zh.json().errorMessage).toBe('版本号必须高于该平台已发布的最新版本');
    const blank = await publish(adminToken, { platform: 'android', version: '2.0.0', reasonsZh: '  \n ', reasonsEn: 'reason' });
    expect(blank.json().errorCode).toBe('reason_required');
    const badVersion = await publish(adminToken, { platform: 'android', version: '2.0', reasonsZh: '原因', reasonsEn: 'reason' });
    expect(badVersion.json().errorCode).toBe('validation_failed');
    expect(await auditRows('app_version_publish')).toHaveLength(1);
  });

  it('lets support list but not publish or withdraw', async () => {
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/appVersion/list', headers: { 'x-admin-token': supportToken } });
    expect(list.json().result.records.map((r: { version: string }) => r.version)).toEqual(['1.2.0']);
    const res = await publish(supportToken, { platform: 'ios', version: '1.0.0', reasonsZh: '原因', reasonsEn: 'reason' });
    expect(res.statusCode).toBe(403);
    const wd = await t.app.inject({ method: 'POST', url: '/api/admin/appVersion/withdraw', headers: { 'x-admin-token': supportToken }, payload: { id: '1' } });
    expect(wd.statusCode).toBe(403);
    const user = await t.app.inject({ method: 'GET', url: '/api/admin/appVersion/list' });
    expect(user.statusCode).toBe(401);
    expect(await latest('ios', '0.0.1')).toEqual({ latest: null, updateAvailable: false });
  });

  it('packages the web build as the bundle of a shell version and serves it', async () => {
    expect((await publish(adminToken, { platform: 'web', version: '1.0.0', reasonsZh: '原因', reasonsEn: 'reason', bundle: true })).json().errorCode).toBe(
      'app_bundle_web_only',
    );
    const res = await publish(adminToken, {
      platform: 'ios',
      version: '1.0.1',
      reasonsZh: '网页包更新',
      reasonsEn: 'Web bundle update',
      bundle: true,
      force: true,
    });
    expect(res.json().status).toBe('SUCCEED');
    const offered = await latest('ios', '1.0.0');
    expect(offered.updateAvailable).toBe(true);
    expect(offered.latest!.force).toBe(true);
    const b = offered.latest!.bundle!;
    expect(b.url).toBe(`/api/app/version/bundle?id=${offered.latest!.id}`);
    const zip = await t.app.inject({ method: 'GET', url: b.url });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.length).toBe(b.sizeBytes);
    expect(createHash('sha256').update(zip.rawPayload).digest('hex')).toBe(b.sha256);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['assets/index-abc.js', 'index.html']);
    expect(strFromU8(files['index.html']!)).toBe('<!doctype html><title>app</title>');
    const none = await t.app.inject({ method: 'GET', url: '/api/app/version/bundle?id=1' });
    expect(none.statusCode).toBe(404);
    expect(none.json().errorCode).toBe('app_version_not_found');
  });

  it('withdraws a version: no longer offered, its bundle gone, once only, audited', async () => {
    const ios = (await latest('ios', '1.0.0')).latest!;
    const wd = () => t.app.inject({ method: 'POST', url: '/api/admin/appVersion/withdraw', headers: { 'x-admin-token': adminToken }, payload: { id: ios.id } });
    const first = await wd();
    expect(first.json().status).toBe('SUCCEED');
    expect(first.json().result.withdrawnAt).toBeGreaterThan(0);
    expect(await latest('ios', '1.0.0')).toEqual({ latest: null, updateAvailable: false });
    expect((await t.app.inject({ method: 'GET', url: ios.bundle!.url })).statusCode).toBe(404);
    const second = await wd();
    expect(second.statusCode).toBe(404);
    expect(second.json().errorCode).toBe('app_version_not_found');
    // a withdrawn number is not reused
    expect((await publish(adminToken, { platform: 'ios', version: '1.0.1', reasonsZh: '原因', reasonsEn: 'reason' })).json().errorCode).toBe(
      'app_version_not_newer',
    );
    const rows = await auditRows('app_version_withdraw');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operator_email: 'admin@app-version.test',
      before: { version: '1.0.1', withdrawn: false },
      after: { version: '1.0.1', withdrawn: true },
    });
  });
});
