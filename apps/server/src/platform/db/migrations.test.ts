/**
 * The migration sets (migrations.ts): the server's drizzle/ first, then each domain folder with migrations of its own,
 * by name, each tracked in its own table; applied on PGlite with the server's real migrations and a throwaway
 * domain's: its table is made once (a second start applies nothing), the server's record is untouched, and today's
 * server has only its own folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from '../config/server-root';
import { applyMigrations, MIGRATION_SETS, migrationSets } from './migrations';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-sets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Writes a drizzle-kit migrations folder at `dir` with one migration `tag` of `sql`. */
function writeMigrations(dir: string, tag: string, sql: string): void {
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = { version: '7', dialect: 'postgresql', entries: [{ idx: 0, version: '7', when: 1_796_000_000_000, tag, breakpoints: true }] };
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  fs.writeFileSync(path.join(dir, `${tag}.sql`), sql);
}

describe('migration sets', () => {
  it("are the server's folder, then each domain folder with a journal of its own, by name, each with its own table", () => {
    const root = path.join(tmp, 'server');
    writeMigrations(path.join(root, 'drizzle'), '0000_init', 'SELECT 1;');
    writeMigrations(path.join(root, 'src', 'domains', 'zeta-prizes', 'drizzle'), '0000_prizes', 'SELECT 1;');
    writeMigrations(path.join(root, 'src', 'domains', 'alpha', 'drizzle'), '0000_alpha', 'SELECT 1;');
    fs.mkdirSync(path.join(root, 'src', 'domains', 'beta'), { recursive: true }); // no migrations of its own
    fs.mkdirSync(path.join(root, 'src', 'domains', 'gamma', 'drizzle'), { recursive: true }); // a folder without a journal
    expect(migrationSets(root)).toEqual([
      { folder: path.join(root, 'drizzle'), table: '__drizzle_migrations' },
      { folder: path.join(root, 'src', 'domains', 'alpha', 'drizzle'), table: '__drizzle_migrations_alpha' },
      { folder: path.join(root, 'src', 'domains', 'zeta-prizes', 'drizzle'), table: '__drizzle_migrations_zeta_prizes' },
    ]);
    // today every domain's migrations are in the server's folder
    expect(MIGRATION_SETS).toEqual([{ folder: path.join(SERVER_ROOT, 'drizzle'), table: '__drizzle_migrations' }]);
  });

  it("apply the server's migrations and a new domain's own, each once, recorded apart", async () => {
    const own = path.join(tmp, 'prizes-drizzle');
    writeMigrations(own, '0000_prizes', 'CREATE TABLE "prize_draws" ("id" bigint PRIMARY KEY NOT NULL, "user_id" bigint NOT NULL);');
    const sets = [...MIGRATION_SETS, { folder: own, table: '__drizzle_migrations_prizes' }];
    const client = new PGlite();
    try {
      const db = drizzle(client);
      await applyMigrations((config) => migrate(db, config), sets);
      await applyMigrations((config) => migrate(db, config), sets); // a second start applies nothing
      await client.query('INSERT INTO prize_draws (id, user_id) VALUES (1, 7)');
      const count = async (table: string) => Number((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM drizzle.${table}`)).rows[0]!.n);
      expect(await count('__drizzle_migrations_prizes')).toBe(1);
      const serverJournal = JSON.parse(fs.readFileSync(path.join(SERVER_ROOT, 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
      expect(await count('__drizzle_migrations')).toBe(serverJournal.entries.length);
      expect((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0]!.n).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('a failing migration of a domain rejects and leaves nothing of it', async () => {
    const bad = path.join(tmp, 'bad-drizzle');
    writeMigrations(bad, '0000_bad', 'CREATE TABLE "half" ("id" bigint);\n--> statement-breakpoint\nCREATE TABLE "half" ("id" bigint);');
    const client = new PGlite();
    try {
      const db = drizzle(client);
      await expect(applyMigrations((config) => migrate(db, config), [...MIGRATION_SETS, { folder: bad, table: '__drizzle_migrations_bad' }])).rejects.toThrow();
      expect((await client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half'")).rows).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
