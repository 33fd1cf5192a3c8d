/**
 * A start against a PostgreSQL that is not up yet (client.ts waitForPostgres): through a TCP forwarder to the
 * machine's PostgreSQL that starts listening only after a second, the wait retries and then succeeds; against a port
 * nobody listens on it gives up after its bound with the connection error. Skipped without a PostgreSQL on
 * 127.0.0.1:5432.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForPostgres } from './client';

const PG_UP = await new Promise<boolean>((resolve) => {
  const s = net.connect(5432, '127.0.0.1', () => {
    s.end();
    resolve(true);
  });
  s.on('error', () => resolve(false));
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

const servers: net.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

describe.skipIf(!PG_UP)('waiting for PostgreSQL at start', () => {
  it('retries while nothing listens, then connects once the server is there', async () => {
    const port = await freePort();
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, max: 1 });
    pool.on('error', () => {});
    const tries: number[] = [];
    const waiting = waitForPostgres(pool, 30_000, (_err, ms) => tries.push(ms));
    setTimeout(() => {
      const fwd = net.createServer((c) => {
        const up = net.connect(5432, '127.0.0.1');
        c.pipe(up).pipe(c);
        c.on('error', () => up.destroy());
        up.on('error', () => c.destroy());
      });
      fwd.listen(port, '127.0.0.1');
      servers.push(fwd);
    }, 1_000);
    await waiting;
    expect(tries.length).toBeGreaterThanOrEqual(2);
    // the backoff doubles from 250 ms
    expect(tries.slice(0, 2)).toEqual([250, 500]);
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  }, 60_000);

  it('gives up after its bound with the connection error', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test`, max: 1 });
    pool.on('error', () => {});
    const t0 = performance.now();
    await expect(waitForPostgres(pool, 600, () => {})).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(performance.now() - t0).toBeLessThan(2_000);
    await pool.end();
  });
});
