/**
 * Proves `npm run admin -- create-operator` on a fresh PGlite data directory: the operator is created with a sealed
 * TOTP key, the password and key are printed once and let the operator log in (TOTP by otplib), a taken e-mail, a
 * wrong role and a usage error exit 1 with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { loadConfig } from '../platform/config/env';
import { openTestApp } from '../../test/helpers';
import { main } from './admin-cli';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-admin-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
      config: () => loadConfig({ NODE_ENV: 'test', PGLITE_TEMPLATE_DIR: process.env.PGLITE_TEMPLATE_DIR }, { dataDir }),
    },
  };
}

describe('admin-cli create-operator', () => {
  it('creates an operator who can log in with the printed password and TOTP key', async () => {
    const a = io();
    expect(await main(['create-operator', '--email', 'Root@Ops.Test', '--name', 'Root', '--role', 'admin'], a.io)).toBe(0);
    const text = a.out.join('\n');
    const password = /password: +(\S+)/.exec(text)![1]!;
    const secret = /TOTP key: +([A-Z2-7]+)/.exec(text)![1]!;
    expect(text).toContain('otpauth://totp/');
    const b = io();
    expect(await main(['create-operator', '--email', 'root@ops.test', '--name', 'Again', '--role', 'admin'], b.io)).toBe(1);
    expect(b.err.join('\n')).toContain('operator_exists');
    const c = io();
    expect(await main(['create-operator', '--email', 'x@ops.test', '--name', 'X', '--role', 'root'], c.io)).toBe(1);
    expect(await main(['create-operator', '--email'], c.io)).toBe(1);
    expect(await main([], c.io)).toBe(1);

    const t = await openTestApp(dataDir);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { email: 'root@ops.test', password, totp: await generate({ secret }) },
      });
      expect(res.json<{ status: string; result: { operator: { role: string } } }>()).toMatchObject({
        status: 'SUCCEED',
        result: { operator: { role: 'admin' } },
      });
    } finally {
      await t.close();
    }
  });
});
