/**
 * Proves the database worker (PGlite in a worker thread, reached through worker-client.ts) keeps PGlite's
 * behaviour as Drizzle sees it: rows and types come back as on a PGlite in this thread (bigint, timestamps as
 * Dates), a transaction commits or rolls back as a whole (also a nested one, by savepoint), a failed statement's
 * error crosses with its PostgreSQL code, and the projection store written in the worker moves the cursor.
 * Also: the main thread stays free while the worker runs a long statement (a timer fires meanwhile).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDb, type DbHandle } from './client';
import { favorites, sessions } from '../../domains/member/member.tables';
import { drizzleProjectionStore } from './projection-store';
import { USERS_TABLE, userRow } from '../../domains/member/member.projection';

/** Users 1, 2, 3 and 2^53 + 1 (the rows below reference them). */
const USER_IDS = ['1', '2', '3', '9007199254740993'];

describe('database worker (PGlite in a worker thread)', () => {
  let h: DbHandle;
  beforeAll(async () => {
    // The worker writes the projection into the tables of the module it is told (here the member domain's alone).
    h = await openDb({ dataDir: 'memory://', schemaModule: new URL('../../domains/member/member.tables.ts', import.meta.url).href });
    const users = USER_IDS.map((id) => userRow(id, { uuid: `u${id}`, mail: `${id}@example.com`, welCode: `W${id}` }, 0));
    await drizzleProjectionStore(h.db).write({ journalId: 'j-1', seq: 1, tables: [{ rule: USERS_TABLE.rule, rows: users }] });
  });
  afterAll(async () => {
    await h.close();
  });

  it('returns rows with their types: bigint ids and Date timestamps', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    await h.db.insert(sessions).values({ tokenHash: 'a'.repeat(64), userId: 9_007_199_254_740_993n, createdAt: at, expiresAt: at });
    const rows = await h.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, 'a'.repeat(64)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.userId).toBe(9_007_199_254_740_993n);
    expect(rows[0]!.expiresAt).toEqual(at);
  });

  it('commits a transaction as a whole, rolls back a failed one, and a failed savepoint alone', async () => {
    await h.db.transaction(async (tx) => {
      await tx.insert(favorites).values({ userId: 1n, pairsName: 'BTC/USDT', type: 'SPOT' });
      await tx.insert(favorites).values({ userId: 1n, pairsName: 'ETH/USDT', type: 'SPOT' });
    });
    await expect(
      h.db.transaction(async (tx) => {
        await tx.insert(favorites).values({ userId: 2n, pairsName: 'BTC/USDT', type: 'SPOT' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await h.db.transaction(async (tx) => {
      await tx.insert(favorites).values({ userId: 3n, pairsName: 'BTC/USDT', type: 'SPOT' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.insert(favorites).values({ userId: 3n, pairsName: 'ETH/USDT', type: 'SPOT' });
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
    });
    const rows = await h.db.select({ userId: favorites.userId, pairsName: favorites.pairsName }).from(favorites).orderBy(favorites.userId, favorites.pairsName);
    expect(rows).toEqual([
      { userId: 1n, pairsName: 'BTC/USDT' },
      { userId: 1n, pairsName: 'ETH/USDT' },
      { userId: 3n, pairsName: 'BTC/USDT' },
    ]);
  });

  it("passes a statement's error across with PostgreSQL's code", async () => {
    const err = await h.db.execute(sql`select * from no_such_table`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/no_such_table/);
    // Drizzle wraps the driver's error; the cause is what crossed from the worker.
    expect(((err as Error).cause as Error & { code?: string }).code).toBe('42P01');
  });

  it('writes the projection in the worker: the cursor moves, a replay changes nothing', async () => {
    const store = drizzleProjectionStore(h.db);
    expect(await store.load()).toEqual({ journalId: 'j-1', cursor: 1 });
    const batch = { journalId: 'j-1', seq: 7, tables: [] };
    await store.write(batch);
    await store.write({ ...batch, seq: 5 });
    expect(await store.load()).toEqual({ journalId: 'j-1', cursor: 7 });
  });

  it('leaves the event loop free while a statement runs in the worker', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await h.db.execute(sql`select pg_sleep(0.3)`);
    clearInterval(timer);
    // On the main thread PGlite would have blocked the loop for the whole 300 ms (no tick at all).
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});

describe('the database worker dying', () => {
  it('tells onDeath once, fails every later query with the reason, and says nothing on a normal close', async () => {
    const { startDbWorker } = await import('./worker-client');
    const { MIGRATIONS_FOLDER } = await import('./client');
    const deaths: Error[] = [];
    const w = await startDbWorker(
      { kind: 'pglite', dir: undefined, migrations: [{ folder: MIGRATIONS_FOLDER, table: '__drizzle_migrations' }], schemaModule: undefined },
      (err) => deaths.push(err),
    );
    expect((await w.client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await w.crash();
    await expect(w.client.query('select 1')).rejects.toThrow(/database worker stopped/);
    expect(deaths).toHaveLength(1);
    expect(deaths[0]!.message).toMatch(/exit code/);

    const quiet: Error[] = [];
    const w2 = await startDbWorker(
      { kind: 'pglite', dir: undefined, migrations: [{ folder: MIGRATIONS_FOLDER, table: '__drizzle_migrations' }], schemaModule: undefined },
      (err) => quiet.push(err),
    );
    await w2.close();
    expect(quiet).toEqual([]);
  }, 60_000);
});
