/** Statements a test run sends to PostgreSQL's server rather than to a test's database (CREATE and DROP DATABASE). */
import pg from 'pg';

/**
 * Runs `statements` one after the other on `url`'s database (DATABASE_URL's own, e.g. `test`): CREATE and DROP
 * DATABASE cannot run inside the database they create or drop, nor inside a transaction. Throws the first error.
 */
export async function onServer(url: string, ...statements: string[]): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const sql of statements) await c.query(sql);
  } finally {
    await c.end();
  }
}
