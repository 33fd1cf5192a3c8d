/**
 * Proves backup and restore (backup.ts, through the CLI's main): a data directory with trades, snapshots and a
 * journal is backed up, restored into an empty data directory (and, when DATABASE_URL is set, an empty
 * PostgreSQL database), and the server's engine host started on the copy recovers the same state hash, the same
 * balances and the same projected orders, the same wallet signer seed and secrets key (sealed in the backup under a
 * passphrase, never in the clear). A damaged backup file, a non-empty target, a data directory with keys and no
 * passphrase, a restore without or with a wrong passphrase, and a PGlite backup while a server holds the data
 * directory are refused. With JOURNAL_RETENTION=archive the archive is copied after the journal and restored, and a
 * restored copy whose database is then lost is rebuilt from it; a backup whose journal does not reach back to a copied
 * snapshot is refused.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config/env';
import { openDb, type DbHandle } from '../platform/db/client';
import { spotOrders } from '../domains/spot/spot.tables';
import { createEngineHost, type EngineHost } from '../platform/engine-host/engine-host';
import { PROJECTIONS, SCHEMA_MODULE } from '../main/domains';
import { nodeFs } from '../platform/engine-host/node-fs';
import { listSnapshots } from '../platform/engine-host/snapshot-store';
import { ensureMarket } from '../platform/engine-host/test-fixtures';
import { LOCK_FILE } from '../platform/engine-host/data-dir-lock';
import { main } from './backup-cli';
import { backupDataDir, type BackupManifest } from './backup';
import { listSegments } from '../platform/engine-host/journal';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

const made: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-test-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

async function open(dataDir: string, databaseUrl?: string, env: Record<string, string> = {}): Promise<{ db: DbHandle; host: EngineHost }> {
  const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir, databaseUrl, worker: false });
  const host = await createEngineHost({
    projections: PROJECTIONS,
    config: loadConfig({ NODE_ENV: 'test', ...env }, { dataDir, snapshotEvery: 15 }),
    db: db.db,
    log,
    projectorFlushMs: 10,
  });
  return { db, host };
}

/** Deposits, resting and crossing orders, a cancel: enough commands for two snapshots and journal after them. */
async function trade(host: EngineHost): Promise<void> {
  await ensureMarket(host);
  for (let i = 0; i < 8; i++) {
    await host.submit({ type: 'deposit', userId: '1', asset: 'BTC', account: 'SPOT', amount: 100_000_000n, from: '@chain', ref: `b${i}` });
    await host.submit({ type: 'deposit', userId: '2', asset: 'USDT', account: 'SPOT', amount: 10_000_000_000_000n, from: '@faucet', ref: `u${i}` });
    const sell = await host.submit({
      type: 'placeOrder',
      userId: '1',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_000_000n + BigInt(i),
      quantity: 200_000n,
    });
    await host.submit({
      type: 'placeOrder',
      userId: '2',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_000_000n + BigInt(i),
      quantity: 50_000n,
    });
    if (i % 3 === 0) await host.submit({ type: 'cancelOrder', userId: '1', orderId: sell.order!.orderId });
  }
}

/** What must survive: the state hash, both users' balances, the projected orders. */
async function stateOf(db: DbHandle, host: EngineHost): Promise<unknown> {
  await host.projected();
  const balances = ['1', '2'].flatMap((u) => ['BTC', 'USDT'].map((a) => host.engine.balance(u, 'SPOT', a)));
  const orders = (await db.db.select().from(spotOrders)).map((o) => [String(o.id), o.status, o.filledQty]).sort();
  return { hash: host.engine.stateHash(), lastSeq: host.stats.lastSeq, balances, orders };
}

const quiet = { out: () => undefined, err: (l: string) => console.error(l) };

async function roundTrip(databaseUrl?: string, restoreUrl?: string): Promise<void> {
  const dataDir = tmp();
  const { db, host } = await open(dataDir, databaseUrl);
  await trade(host);
  const before = await stateOf(db, host);
  await host.close();
  await db.close();
  // A user's image (domains/uploads stores them under uploads/<2 hex>/<id>) and the key of the secrets at rest.
  const image = path.join('uploads', 'ab', 'abcdef0123456789');
  fs.mkdirSync(path.join(dataDir, 'uploads', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, image), Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]));
  fs.writeFileSync(path.join(dataDir, 'secrets.key'), 'a2V5LWJ5dGVzLWtleS1ieXRlcy1rZXktYnl0ZXMtMzI=\n', { mode: 0o600 });
  // the hot-wallet signer's seed (chain.service.ts loadOrCreateSignerSeed: base64 of 32 bytes)
  const seed = `${Buffer.from(Array.from({ length: 32 }, (_, i) => i * 7 + 3)).toString('base64')}\n`;
  fs.writeFileSync(path.join(dataDir, 'wallet-seed.key'), seed, { mode: 0o600 });
  expect((await listSnapshots(nodeFs, path.join(dataDir, 'snapshots'))).length).toBeGreaterThan(0);

  const backupDir = path.join(tmp(), 'backup');
  const cfg = (url?: string) => () => ({ dataDir, databaseUrl: url });
  const env = { BACKUP_PASSPHRASE: 'correct horse battery staple' };
  // keys in the data directory and no passphrase: refused, nothing written
  const refused: string[] = [];
  expect(await main(['backup', backupDir], { out: () => undefined, err: (l) => refused.push(l), config: cfg(databaseUrl), env: {} })).toBe(1);
  expect(refused).toEqual([expect.stringMatching(/holds key material \(wallet-seed\.key, secrets\.key\): give a passphrase/)]);
  expect(fs.existsSync(backupDir)).toBe(false);
  expect(await main(['backup', backupDir], { ...quiet, config: cfg(databaseUrl), env })).toBe(0);
  expect(fs.existsSync(path.join(backupDir, databaseUrl ? 'database.sql' : 'pglite'))).toBe(true);
  // the keys only sealed: no key file, and neither key's bytes nor its base64 anywhere in the backup
  expect(fs.readdirSync(backupDir).sort()).toEqual(
    ['journal', 'keys.enc', 'manifest.json', databaseUrl ? 'database.sql' : 'pglite', 'snapshots', 'uploads'].sort(),
  );
  // the journal's recorded durable position is copied before its segments
  const journalFiles = (JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as { files: { path: string }[] }).files
    .map((f) => f.path)
    .filter((p) => p.startsWith(`journal${path.sep}`));
  expect(journalFiles[0]).toBe(path.join('journal', 'durable-position.log'));
  expect(journalFiles.slice(1).every((p) => path.basename(p).startsWith('segment-'))).toBe(true);
  const everything = Buffer.concat(
    (fs.readdirSync(backupDir, { recursive: true, encoding: 'utf8' }) as string[])
      .filter((f) => fs.statSync(path.join(backupDir, f)).isFile())
      .map((f) => fs.readFileSync(path.join(backupDir, f))),
  );
  for (const k of [seed.trim(), 'a2V5LWJ5dGVzLWtleS1ieXRlcy1rZXktYnl0ZXMtMzI=']) {
    expect(everything.includes(Buffer.from(k))).toBe(false);
    expect(everything.includes(Buffer.from(k, 'base64'))).toBe(false);
  }

  // restore without the passphrase, or with a wrong one: refused, the target left empty
  const restored = tmp();
  const denied: string[] = [];
  const deny = { out: () => undefined, err: (l: string) => denied.push(l), config: cfg(restoreUrl) };
  expect(await main(['restore', backupDir, '--data-dir', restored], { ...deny, env: {} })).toBe(1);
  expect(await main(['restore', backupDir, '--data-dir', restored], { ...deny, env: { BACKUP_PASSPHRASE: 'correct horse battery stapler' } })).toBe(1);
  expect(denied).toEqual([
    expect.stringMatching(/holds the keys \(signer-seed, secrets-key\) sealed: give its passphrase/),
    expect.stringMatching(/wrong passphrase or damaged key file/),
  ]);
  expect(fs.readdirSync(restored)).toEqual([]);
  const passFile = path.join(tmp(), 'passphrase');
  fs.writeFileSync(passFile, 'correct horse battery staple\nignored second line\n');
  expect(await main(['restore', backupDir, '--data-dir', restored, '--passphrase-file', passFile], { ...quiet, config: cfg(restoreUrl), env: {} })).toBe(0);
  expect(fs.readFileSync(path.join(restored, 'wallet-seed.key'), 'utf8')).toBe(seed);
  expect(fs.statSync(path.join(restored, 'wallet-seed.key')).mode & 0o777).toBe(0o600);
  const copy = await open(restored, restoreUrl);
  try {
    expect(copy.host.recovery.snapshotSeq).toBeGreaterThan(0);
    expect(await stateOf(copy.db, copy.host)).toEqual(before);
    expect(fs.readFileSync(path.join(restored, image))).toEqual(fs.readFileSync(path.join(dataDir, image)));
    expect(fs.readFileSync(path.join(restored, 'secrets.key'), 'utf8')).toBe(fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8'));
    expect(fs.statSync(path.join(restored, 'secrets.key')).mode & 0o777).toBe(0o600);
  } finally {
    await copy.host.close();
    await copy.db.close();
  }

  // Refused: restoring over a data directory that is not empty, and a damaged backup.
  const errors: string[] = [];
  expect(await main(['restore', backupDir, '--data-dir', restored], { out: () => undefined, err: (l) => errors.push(l), config: cfg(restoreUrl), env })).toBe(
    1,
  );
  const segment = fs.readdirSync(path.join(backupDir, 'journal')).find((f) => f.startsWith('segment-'))!;
  fs.appendFileSync(path.join(backupDir, 'journal', segment), Buffer.from([1]));
  expect(
    await main(['restore', backupDir, '--data-dir', path.join(tmp(), 'x')], { out: () => undefined, err: (l) => errors.push(l), config: cfg(restoreUrl), env }),
  ).toBe(1);
  expect(errors).toEqual([expect.stringMatching(/is not empty/), expect.stringMatching(/journal\/segment-.* is damaged/)]);
}

describe('backup and restore', () => {
  it('PGlite: restore into an empty data directory gives the same state hash, balances and orders', async () => {
    await roundTrip();
  }, 120_000);

  it('PGlite: refused while a live server process holds the data directory, taken once it is gone', async () => {
    const dataDir = tmp();
    fs.mkdirSync(path.join(dataDir, 'journal'), { recursive: true });
    fs.mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'journal', 'segment-00000000000000000001.log'), Buffer.from([0]));
    fs.writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), '17\n');
    // another process (a server) holds the lock (platform/engine-host/data-dir-lock.ts)
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: child.pid, hostname: os.hostname(), since: 'then' }));
    const errors: string[] = [];
    const io = { out: () => undefined, err: (l: string) => errors.push(l), config: () => ({ dataDir, databaseUrl: undefined }), env: {} };
    try {
      expect(await main(['backup', path.join(tmp(), 'b1')], io)).toBe(1);
      expect(errors).toEqual([expect.stringMatching(new RegExp(`^backup failed: the server \\(pid ${child.pid} on .*\\) is running on .*: stop it first`))]);
    } finally {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    expect(await main(['backup', path.join(tmp(), 'b2')], io)).toBe(0);
  }, 60_000);

  it('JOURNAL_RETENTION=archive: the archive is backed up after the journal and restored; a lost database is rebuilt from it', async () => {
    const dataDir = tmp();
    const retention = { JOURNAL_RETENTION: 'archive' };
    const { db, host } = await open(dataDir, undefined, retention);
    await trade(host);
    const before = await stateOf(db, host);
    await host.close();
    await db.close();
    const archived = await listSegments(nodeFs, path.join(dataDir, 'journal-archive'));
    expect(archived[0]?.start).toBe(1);
    expect((await listSegments(nodeFs, path.join(dataDir, 'journal')))[0]!.start).toBeGreaterThan(1);

    const backupDir = path.join(tmp(), 'backup');
    expect(await main(['backup', backupDir, '--without-keys'], { ...quiet, config: () => ({ dataDir, databaseUrl: undefined }), env: {} })).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
    const paths = manifest.files.map((f) => f.path);
    const lastJournal = paths.findLastIndex((p) => p.startsWith(`journal${path.sep}`));
    const firstArchive = paths.findIndex((p) => p.startsWith(`journal-archive${path.sep}`));
    expect(paths.filter((p) => p.startsWith(`journal-archive${path.sep}`))).toHaveLength(archived.length);
    expect(firstArchive).toBeGreaterThan(lastJournal);

    const restored = tmp();
    expect(
      await main(['restore', backupDir, '--data-dir', restored], { ...quiet, config: () => ({ dataDir: restored, databaseUrl: undefined }), env: {} }),
    ).toBe(0);
    expect(await listSegments(nodeFs, path.join(restored, 'journal-archive'))).toHaveLength(archived.length);
    const copy = await open(restored, undefined, retention);
    expect(await stateOf(copy.db, copy.host)).toEqual(before);
    await copy.host.close();
    await copy.db.close();
    // The restored copy's database lost: rebuilt from genesis through the archive, to the same state and orders.
    fs.rmSync(path.join(restored, 'pglite'), { recursive: true, force: true });
    const rebuilt = await open(restored, undefined, retention);
    try {
      expect(rebuilt.host.recovery.snapshotSeq).toBe(0);
      expect(await stateOf(rebuilt.db, rebuilt.host)).toEqual(before);
    } finally {
      await rebuilt.host.close();
      await rebuilt.db.close();
    }

    // A journal that does not reach back to a copied snapshot (the archive and the journal's older segment gone, the
    // newest snapshot lost, as a pruning during the copy could leave them): refused, where a restore would not start.
    fs.rmSync(path.join(dataDir, 'journal-archive'), { recursive: true });
    fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true });
    fs.rmSync((await listSegments(nodeFs, path.join(dataDir, 'journal')))[0]!.file);
    fs.rmSync((await listSnapshots(nodeFs, path.join(dataDir, 'snapshots')))[0]!.file);
    await expect(backupDataDir({ dataDir, out: path.join(tmp(), 'b'), withoutKeys: true })).rejects.toThrow(
      /starts at sequence \d+, after every usable snapshot copied .*Run the backup again/,
    );
  }, 120_000);

  it.skipIf(!process.env.DATABASE_URL)(
    'PostgreSQL: pg_dump, restore into an empty database, same state',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      const suffix = Math.random().toString(36).slice(2, 10);
      const names = [`backup_src_${suffix}`, `backup_dst_${suffix}`];
      const urlOf = (name: string) => {
        const u = new URL(process.env.DATABASE_URL!);
        u.pathname = `/${name}`;
        return u.toString();
      };
      try {
        for (const n of names) await admin.query(`CREATE DATABASE ${n}`);
        await roundTrip(urlOf(names[0]!), urlOf(names[1]!));
      } finally {
        for (const n of names) await admin.query(`DROP DATABASE IF EXISTS ${n} WITH (FORCE)`);
        await admin.end();
      }
    },
    180_000,
  );
});
