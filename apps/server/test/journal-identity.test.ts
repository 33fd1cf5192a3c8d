/**
 * Proves that money is keyed by ids from the journal, and that a journal and a database are a pair.
 * On a real data directory (PGlite files + journal): a user registers and is funded, the database
 * folder is deleted, and the server starts again: the user is rebuilt from the journal with the same id, logs in
 * with the same password, keeps the same balance and order, and a new registrant gets a NEW id and only their own
 * demo funds (before the change, the new user inherited user 1's 5,010,000 USDT). Then a database of another
 * journal, and a database ahead of the journal (the journal lost), are refused at start with a clear message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/main/context';
import { ensureMarket } from '../src/platform/engine-host/test-fixtures';
import { post, registerEmail } from '../src/domains/member/member-test-app';
import { openTestApp } from './helpers';
import type { EngineHost } from '../src/platform/engine-host/engine-host';

const USDT = 100_000_000n;
const dirs: string[] = [];

function newDataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-identity-'));
  dirs.push(d);
  return d;
}

/** Opens context + app on `dataDir` with PGlite (never DATABASE_URL: this test owns its database files). */
const open = (dataDir: string) => openTestApp(dataDir, { databaseUrl: undefined });

function usdtOf(ctx: AppContext, userId: string): bigint {
  const b = ctx.host.engine.balance(userId, 'SPOT', 'USDT');
  return b.available + b.frozen;
}

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('journal identity', () => {
  it('a lost database is rebuilt from the journal; a new registrant never inherits an old id', async () => {
    const dataDir = newDataDir();
    let t = await open(dataDir);
    await ensureMarket(t.ctx.host);
    const alice = await registerEmail(t, 'alice@identity.test', 'Secret123');
    expect(alice.userId).toBe('1');
    await t.ctx.host.submit({ type: 'deposit', userId: alice.userId, asset: 'USDT', account: 'SPOT', amount: 5_000_000n * USDT, from: '@faucet', ref: 'big' });
    const order = await t.ctx.host.submit({
      type: 'placeOrder',
      userId: alice.userId,
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 100_000n,
      quantity: 1_000_000n,
    });
    expect(order.code).toBe('ok');
    expect(usdtOf(t.ctx, alice.userId)).toBe(5_010_000n * USDT);
    await t.close();

    fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
    t = await open(dataDir);
    // The embedded default's host (services see it as the engine port; recovery is the embedded host's own figure).
    expect((t.ctx.host as EngineHost).recovery.journalId).not.toBeNull();
    await t.ctx.host.projected();
    // Alice is back under the same id, with her password, balance and open order.
    const login = await post(t.app, 'member/member/login', { account: 'alice@identity.test', password: 'Secret123' }, { ip: '10.9.9.9' });
    expect(login.json().status).toBe('SUCCEED');
    expect(login.json().result.userId).toBe('1');
    expect(usdtOf(t.ctx, '1')).toBe(5_010_000n * USDT);
    expect(t.ctx.host.engine.openOrders('1').map((o) => o.orderId)).toEqual([order.order!.orderId]);
    // A new registrant gets id 2 and only the demo faucet's 10,000 USDT.
    const bob = await registerEmail(t, 'bob@identity.test', 'Secret123');
    expect(bob.userId).toBe('2');
    expect(usdtOf(t.ctx, bob.userId)).toBe(10_000n * USDT);
    expect(t.ctx.host.engine.openOrders(bob.userId)).toEqual([]);
    expect(usdtOf(t.ctx, '1')).toBe(5_010_000n * USDT);
    // The rebuilt users table holds both, under the engine's ids.
    const me = await t.app.inject({ method: 'GET', url: '/api/member/member/getMember', headers: { token: bob.token, userId: bob.userId, lang: 'en' } });
    expect(me.json().result.mail).toBe('bob@identity.test');
    await t.close();
  }, 120_000);

  it('refuses a database of another journal, and a database ahead of its journal', async () => {
    const a = newDataDir();
    const b = newDataDir();
    let t = await open(a);
    await registerEmail(t, 'carol@identity.test', 'Secret123');
    await t.close();
    t = await open(b);
    await t.close();
    // b's journal with a's database.
    fs.rmSync(path.join(b, 'pglite'), { recursive: true, force: true });
    fs.cpSync(path.join(a, 'pglite'), path.join(b, 'pglite'), { recursive: true });
    await expect(open(b)).rejects.toThrow(/projects journal .* but the journal .* is /);
    // a's database without its journal: the database is ahead of an empty journal.
    fs.rmSync(path.join(a, 'journal'), { recursive: true, force: true });
    fs.rmSync(path.join(a, 'snapshots'), { recursive: true, force: true });
    await expect(open(a)).rejects.toThrow(/journal was lost/);
  }, 120_000);
});
