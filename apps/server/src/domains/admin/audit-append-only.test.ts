/**
 * Proves that the audit log is append-only in code: no source file of the server updates or deletes
 * audit_log rows, through Drizzle (`update(auditLog)`, `delete(auditLog)`) or SQL text (`UPDATE audit_log`, `DELETE
 * FROM audit_log`, `TRUNCATE audit_log`). Inserts (the repository and the projector) are the only writes. And the
 * database refuses them too (migration 0008: a trigger), on PGlite and on PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { auditLog } from '../../platform/db/schema/audit';

const SRC = path.resolve(import.meta.dirname, '..', '..');
const FORBIDDEN = [
  /\.(update|delete)\(\s*auditLog\b/,
  /\bupdate\s+"?audit_log"?/i,
  /\bdelete\s+from\s+"?audit_log"?/i,
  /\btruncate\s+(table\s+)?"?audit_log"?/i,
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('audit log', () => {
  it('has no update or delete path in the server code', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const hits = files.flatMap((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return FORBIDDEN.filter((re) => re.test(text)).map((re) => `${path.relative(SRC, f)}: ${re}`);
    });
    expect(hits).toEqual([]);
    // The inserts it does have (so the patterns would see a change of table name).
    expect(files.some((f) => /insert\(auditLog\)/.test(fs.readFileSync(f, 'utf8')))).toBe(true);
  });
});

describe('audit log in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses UPDATE, DELETE and TRUNCATE; INSERT works', async () => {
    await t.ctx.db.insert(auditLog).values({ operatorEmail: 'cli', action: 'operator_create', at: new Date() });
    await expect(t.ctx.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    const rows = await t.ctx.db.select().from(auditLog);
    expect(rows.map((r) => r.action)).toEqual(['operator_create']);
  });
});
