/**
 * The wallet's identity against the journal (wallet-identity.ts, through createChainService on a real engine host):
 * the first start with a chain node creates the seed and records its fingerprint; a start without the seed file is
 * refused (no new seed is written), and so is a start on another seed; the restored seed starts again. A journal
 * with users and no recorded identity refuses to make a seed too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config/env';
import { openDb, type DbHandle } from '../../platform/db/client';
import { createEngineHost, type EngineHost } from '../../platform/engine-host/engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../../main/domains';
import { createChainService, type ChainService } from './chain.service';
import type { ChainClient } from '@exchange/chain';
import { walletFingerprint } from './wallet-identity';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const made: string[] = [];
const closers: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

async function host(dataDir: string): Promise<{ host: EngineHost; db: DbHandle }> {
  const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
  const h = await createEngineHost({
    projections: PROJECTIONS,
    machines: MACHINES,
    config: loadConfig({ NODE_ENV: 'test' }, { dataDir }),
    db: db.db,
    log,
    projectorFlushMs: 10,
  });
  closers.push(async () => {
    await h.close();
    await db.close();
  });
  return { host: h, db };
}

/** The chain service of `dataDir` with a node (a client that is never called here) and the chain jobs on. */
function chainOf(dataDir: string, h: { host: EngineHost; db: DbHandle }): ChainService {
  const config = loadConfig({ NODE_ENV: 'test' }, { dataDir, signerSeedFile: path.join(dataDir, 'wallet-seed.key'), chainJobs: true, chainId: 31337 });
  const c = createChainService({ config, db: h.db.db, host: h.host, log, client: {} as ChainClient });
  closers.push(() => c.close());
  return c;
}

describe('wallet identity', () => {
  it('is recorded at the first start; a missing or another seed is refused, the restored one starts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-identity-'));
    made.push(dataDir);
    const seedFile = path.join(dataDir, 'wallet-seed.key');
    const h = await host(dataDir);
    const first = chainOf(dataDir, h);
    await first.identityRecorded;
    expect(h.host.engine.walletIdentity()).toBe(walletFingerprint(first.xpub));
    const seed = fs.readFileSync(seedFile);
    const address = first.depositAddress('7');

    fs.rmSync(seedFile);
    expect(() => chainOf(dataDir, h)).toThrow(/SIGNER_SEED_FILE .*wallet-seed\.key is missing, but the journal recorded the wallet [0-9a-f]{16}…/);
    expect(fs.existsSync(seedFile)).toBe(false);

    fs.writeFileSync(seedFile, `${Buffer.alloc(32, 9).toString('base64')}\n`, { mode: 0o600 });
    expect(() => chainOf(dataDir, h)).toThrow(/is not the one this exchange's journal recorded .*Restore the seed with its backup/);

    fs.writeFileSync(seedFile, seed);
    const again = chainOf(dataDir, h);
    await again.identityRecorded;
    expect(again.depositAddress('7')).toBe(address);
  });

  it('is never made for a journal that has users, even before an identity was recorded', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-identity-'));
    made.push(dataDir);
    const h = await host(dataDir);
    expect((await h.host.submit({ type: 'registerUser', account: 'em:a@b.test', uniqueKeys: [], profile: {} })).code).toBe('ok');
    expect(() => chainOf(dataDir, h)).toThrow(/is missing, but the journal has 1 user,/);
    expect(fs.existsSync(path.join(dataDir, 'wallet-seed.key'))).toBe(false);
    expect(h.host.engine.walletIdentity()).toBeNull();
  });
});
