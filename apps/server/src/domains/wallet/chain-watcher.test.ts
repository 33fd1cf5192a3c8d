/**
 * Proves the deposit watcher against a real dev chain (Hardhat node from @exchange/chain on port 8640, blocks mined
 * only on demand so every confirmation is counted by the test), the real engine and PGlite: USDT and ETH deposits to
 * a user's derived address are recorded CONFIRMING and credited once they are 3 blocks deep, exactly once, also after
 * a restart of the watcher, after losing the watcher's tables (a rescan from the start block: the engine's
 * creditDeposit is idempotent) and after a restart of the whole context on the same data directory; deposits below the
 * minimum (and dust below one engine unit) are recorded, never credited; a reorg (snapshot before the deposit, revert
 * after 2 blocks, mine) credits nothing and marks the deposit ORPHANED, and a reorg deeper than the confirmations
 * leaves the credit and raises an alert; a node that stops answering (paused) fails ticks quietly, and once it answers
 * again the watcher catches up with every block mined meanwhile. The demo deposit route and the console's monitor, alerts and hot wallet pages
 * are read through app.inject.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { createChainClient, fundFromFaucet, DEV_FAUCET_KEY, type Address, type ChainClient } from '@exchange/chain';
import { loadConfig, type Config } from '../../platform/config/env';
import { openTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { chainBlocks, walletDeposits } from './chain.tables';
import { depositRow } from './wallet.projection';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { listDeposits, type DepositRow } from './chain.repository';
import { startDemoChain, type DemoChain } from './chain.service';
import { createChainJobs, type ChainJobs } from './chain-jobs';

const PORT = 8640;
const CONFIRMATIONS = 3;
const USDT = (n: bigint) => n * 10n ** 8n;
let dataDir: string;
let demo: DemoChain;
let client: ChainClient;
let overrides: Partial<Config>;
let t: TestApp;
let jobs: ChainJobs;
let alice: TestUser;
let aliceAddress: Address;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-chain-'));
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir, devChainPort: PORT });
  demo = await startDemoChain(base, { blockIntervalMs: 0 });
  client = createChainClient(demo.devChain.rpcUrl);
  overrides = {
    ...NO_RATE_LIMITS,
    chainRpcUrl: demo.devChain.rpcUrl,
    chainUsdtContract: demo.usdt,
    chainConfirmations: CONFIRMATIONS,
    chainJobs: true,
    devChainPort: PORT,
  };
  t = await openTestApp(dataDir, overrides);
  jobs = createChainJobs(t.ctx);
  alice = await loginUser(t, 'alice@chain-watcher.test');
  aliceAddress = t.ctx.chain.depositAddress(alice.userId);
}, 120_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await demo?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Alice's available balance of `coin` in her ASSETS account (engine units). */
const assets = (coin: string) => t.ctx.host.engine.balance(alice.userId, 'ASSETS', coin).available;
/** Her deposit rows by tx hash. */
async function depositOf(txHash: string): Promise<DepositRow[]> {
  return (await listDeposits(t.ctx.db, alice.userId, { limit: 100, offset: 0 })).rows.filter((r) => r.txHash === txHash.toLowerCase());
}
async function demoDeposit(coin: string, amount: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/asset/wallet/demoDeposit',
    headers: { ...alice.headers, lang: 'en' },
    payload: { coin, chain: 'ETH', amount },
  });
}
async function depositOk(coin: string, amount: string): Promise<string> {
  const res = await demoDeposit(coin, amount);
  expect(res.json()).toMatchObject({ status: 'SUCCEED' });
  return res.json().result.txHash as string;
}
/** Mines `n` blocks and lets the watcher catch up. */
async function mineAndTick(n: number): Promise<void> {
  if (n > 0) await client.mine(n);
  await jobs.watcher!.tick();
}

describe('deposits', () => {
  it('credits a USDT and an ETH deposit once they are 3 blocks deep, exactly once', async () => {
    const usdt0 = assets('USDT');
    const eth0 = assets('ETH');
    const usdtTx = await depositOk('USDT', '25.5');
    const ethTx = await depositOk('ETH', '0.5');
    await mineAndTick(0);
    // Seen in their blocks (confirmations 2 and 1 of 3), not credited.
    expect((await depositOf(usdtTx))[0]).toMatchObject({
      status: 'CONFIRMING',
      coin: 'USDT',
      amount: '2550000000',
      chainAmount: '25500000',
      logIndex: 0,
      toAddress: aliceAddress,
    });
    expect((await depositOf(ethTx))[0]).toMatchObject({
      status: 'CONFIRMING',
      coin: 'ETH',
      amount: '50000000',
      chainAmount: '500000000000000000',
      logIndex: -1,
    });
    expect(assets('USDT')).toBe(usdt0);
    await mineAndTick(1);
    // USDT is 3 deep now, ETH 2.
    expect((await depositOf(usdtTx))[0]!.status).toBe('CREDITED');
    expect((await depositOf(ethTx))[0]!.status).toBe('CONFIRMING');
    expect(assets('USDT')).toBe(usdt0 + 2_550_000_000n);
    expect(assets('ETH')).toBe(eth0);
    await mineAndTick(1);
    expect(assets('ETH')).toBe(eth0 + 50_000_000n);
    await mineAndTick(5);
    expect(assets('USDT')).toBe(usdt0 + 2_550_000_000n);
    expect(assets('ETH')).toBe(eth0 + 50_000_000n);
    expect(t.ctx.host.engine.depositCredited('ETH', usdtTx.toLowerCase(), 0)).toBe(true);
    // The projector wrote the credit's journal position.
    await t.ctx.host.projected();
    expect((await depositOf(usdtTx))[0]!.creditedSeq).toBeGreaterThan(0);
    // The record as the capital records show it.
    const rec = t.ctx.chain.depositRecord((await depositOf(usdtTx))[0]!, await t.ctx.chain.head('ETH'));
    expect(rec).toMatchObject({
      amount: '25.50000000',
      status: 'CREDITED',
      confirmations: CONFIRMATIONS,
      confirmationsRequired: CONFIRMATIONS,
      fromAddress: expect.stringMatching(/^0x/),
    });
  }, 60_000);

  it('credits nothing twice after a watcher restart or a rescan from the start block (lost tables)', async () => {
    const usdt0 = assets('USDT');
    const tx = await depositOk('USDT', '3');
    await mineAndTick(0);
    // A new watcher on the same database (a process restart) resumes from the cursor.
    await jobs.stop();
    jobs = createChainJobs(t.ctx);
    await mineAndTick(2);
    expect(assets('USDT')).toBe(usdt0 + USDT(3n));
    // The watcher's tables lost: it rescans from block 0; every deposit is seen again, creditDeposit answers duplicate.
    await t.ctx.host.projected();
    const credited = (await depositOf(tx))[0]!;
    await t.ctx.db.delete(chainBlocks);
    await t.ctx.db.delete(walletDeposits);
    // The row as a projector rebuilding the database from the journal writes it (no block hash, sender or chain amount).
    const d = {
      userId: alice.userId,
      asset: 'USDT',
      amount: USDT(3n),
      chain: 'ETH',
      txHash: credited.txHash,
      logIndex: 0,
      address: credited.toAddress,
      blockNumber: credited.blockNumber,
    };
    await t.ctx.db.insert(walletDeposits).values(depositRow(d, 99, Date.now()));
    await jobs.stop();
    jobs = createChainJobs(t.ctx);
    await mineAndTick(0);
    // The rescan completes the rebuilt row from the chain; its status stays CREDITED.
    expect((await depositOf(tx))[0]).toMatchObject({
      status: 'CREDITED',
      creditedSeq: 99,
      fromAddress: credited.fromAddress,
      chainAmount: '3000000',
      blockHash: credited.blockHash,
    });
    expect(assets('USDT')).toBe(usdt0 + USDT(3n));
  }, 60_000);

  it('records deposits below the minimum and dust, never credits them', async () => {
    const usdt0 = assets('USDT');
    const eth0 = assets('ETH');
    const small = await depositOk('USDT', '0.5');
    const dust = await fundFromFaucet({ rpcUrl: demo.devChain.rpcUrl, chainId: demo.devChain.chainId, faucetKey: DEV_FAUCET_KEY }, aliceAddress, {
      token: null,
      amount: 9_999_999_999n,
    });
    await mineAndTick(5);
    expect((await depositOf(small))[0]).toMatchObject({ status: 'BELOW_MINIMUM', amount: '50000000' });
    expect((await depositOf(dust))[0]).toMatchObject({ status: 'BELOW_MINIMUM', amount: '0', chainAmount: '9999999999' });
    expect(assets('USDT')).toBe(usdt0);
    expect(assets('ETH')).toBe(eth0);
  }, 60_000);

  it('a reorg before the confirmations credits nothing and orphans the deposit', async () => {
    const usdt0 = assets('USDT');
    await mineAndTick(0);
    const snap = await client.snapshot();
    const tx = await depositOk('USDT', '40');
    await mineAndTick(1);
    expect((await depositOf(tx))[0]!.status).toBe('CONFIRMING');
    await client.revert(snap);
    await mineAndTick(4);
    expect((await depositOf(tx))[0]!.status).toBe('ORPHANED');
    await mineAndTick(3);
    expect((await depositOf(tx))[0]!.status).toBe('ORPHANED');
    expect(assets('USDT')).toBe(usdt0);
    expect(t.ctx.host.engine.depositCredited('ETH', tx.toLowerCase(), 0)).toBe(false);
  }, 60_000);

  it('a reorg deeper than the confirmations keeps the credit and raises an alert', async () => {
    const usdt0 = assets('USDT');
    await mineAndTick(0);
    const snap = await client.snapshot();
    const tx = await depositOk('USDT', '11');
    await mineAndTick(2);
    expect(assets('USDT')).toBe(usdt0 + USDT(11n));
    await client.revert(snap);
    await mineAndTick(5);
    expect((await depositOf(tx))[0]!.status).toBe('CREDITED');
    const alerts = await t.ctx.chain.alerts();
    expect(alerts[0]).toMatchObject({ chain: 'ETH', kind: 'deep_reorg', message: expect.stringContaining(tx.toLowerCase()) });
    expect(assets('USDT')).toBe(usdt0 + USDT(11n));
  }, 60_000);

  it('credits a deposit seen before a restart of the whole context on the same data directory, once', async () => {
    const usdt0 = assets('USDT');
    const tx = await depositOk('USDT', '7');
    await mineAndTick(0);
    expect((await depositOf(tx))[0]!.status).toBe('CONFIRMING');
    await jobs.stop();
    await t.close();
    await client.mine(3);
    t = await openTestApp(dataDir, overrides);
    jobs = createChainJobs(t.ctx);
    expect(assets('USDT')).toBe(usdt0);
    await mineAndTick(0);
    expect((await depositOf(tx))[0]!.status).toBe('CREDITED');
    await mineAndTick(2);
    expect(assets('USDT')).toBe(usdt0 + USDT(7n));
  }, 90_000);
});

describe('demo deposit and console pages', () => {
  it('refuses bad demo deposits', async () => {
    expect((await demoDeposit('USDT', '10000.01')).json()).toMatchObject({ status: 'FAILED', errorCode: 'amount_above_maximum' });
    expect((await demoDeposit('ETH', '10.00000001')).json()).toMatchObject({ status: 'FAILED', errorCode: 'amount_above_maximum' });
    expect((await demoDeposit('USDT', '1.0000001')).json()).toMatchObject({ status: 'FAILED', errorCode: 'amount_invalid' });
    expect((await demoDeposit('USDT', '-1')).json()).toMatchObject({ status: 'FAILED', errorCode: 'amount_invalid' });
    expect((await demoDeposit('USDT', '0')).json()).toMatchObject({ status: 'FAILED', errorCode: 'amount_invalid' });
    expect((await demoDeposit('BTC', '1')).json()).toMatchObject({ status: 'FAILED', errorCode: 'chain_not_available' });
    const anon = await t.app.inject({ method: 'POST', url: '/api/asset/wallet/demoDeposit', payload: { coin: 'USDT', chain: 'ETH', amount: '1' } });
    expect(anon.statusCode).toBe(401);
  });

  it('shows deposits, alerts and the hot wallet against liabilities in the console', async () => {
    const email = 'support@chain-watcher.test';
    const c = await t.ctx.admin.createOperator(null, { email, name: 'Support', role: 'support' });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { email, password: c.password, totp: await generate({ secret: c.totpSecret }) },
    });
    const headers = { 'x-admin-token': login.json().result.token as string, lang: 'en' };
    const all = (await t.app.inject({ method: 'GET', url: '/api/admin/wallet/deposits', headers })).json();
    expect(all.status).toBe('SUCCEED');
    expect(all.result.total).toBeGreaterThanOrEqual(6);
    expect(all.result.list[0]).toMatchObject({ userId: alice.userId, account: 'alice@chain-watcher.test', chain: 'ETH' });
    const below = (await t.app.inject({ method: 'GET', url: '/api/admin/wallet/deposits?status=BELOW_MINIMUM', headers })).json();
    expect(below.result.list.map((d: { status: string }) => d.status)).toEqual(['BELOW_MINIMUM', 'BELOW_MINIMUM']);
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/wallet/deposits?page=0', headers });
    expect(bad.statusCode).toBe(400);
    const alerts = (await t.app.inject({ method: 'GET', url: '/api/admin/wallet/alerts', headers })).json();
    expect(alerts.result.some((a: { kind: string }) => a.kind === 'deep_reorg')).toBe(true);
    const hot = (await t.app.inject({ method: 'GET', url: '/api/admin/wallet/hotWallet', headers })).json();
    const usdtRow = hot.result.find((r: { coin: string }) => r.coin === 'USDT');
    expect(usdtRow.hotWalletAddress).toBe(t.ctx.chain.hotWalletAddress);
    expect(usdtRow.hotWallet).toBe('100000000.00000000');
    // Alice's addresses hold every USDT sent to them on the current chain (the reorged ones are gone): 25.5 + 3 + 0.5 + 7.
    expect(usdtRow.depositAddresses).toBe('36.00000000');
    const liabilities = [...t.ctx.host.engine.userRows()].reduce((s, [id]) => s + t.ctx.host.engine.balance(id, 'ASSETS', 'USDT').available, 0n);
    expect(BigInt(usdtRow.liabilities.replace('.', ''))).toBeGreaterThanOrEqual(liabilities);
    const anon = await t.app.inject({ method: 'GET', url: '/api/admin/wallet/hotWallet' });
    expect(anon.statusCode).toBe(401);
  });
});

describe('node down and dev chain restarted', () => {
  it('catches up after the node did not answer: deposits mined meanwhile are credited once it answers again', async () => {
    const usdt0 = assets('USDT');
    const eth0 = assets('ETH');
    const usdtTx = await depositOk('USDT', '7');
    await mineAndTick(1);
    expect((await depositOf(usdtTx))[0]!.status).toBe('CONFIRMING');
    // The node stops answering (its process paused): ticks fail quietly and change nothing.
    demo.devChain.pause();
    await jobs.watcher!.tick();
    expect(assets('USDT')).toBe(usdt0);
    demo.devChain.resume();
    // Meanwhile the chain moved on: another deposit and several blocks the watcher never saw one by one.
    const ethTx = await depositOk('ETH', '0.25');
    await client.mine(4);
    await jobs.watcher!.tick();
    expect((await depositOf(usdtTx))[0]!.status).toBe('CREDITED');
    expect((await depositOf(ethTx))[0]!.status).toBe('CREDITED');
    expect(assets('USDT')).toBe(usdt0 + USDT(7n));
    expect(assets('ETH')).toBe(eth0 + 25_000_000n);
    await mineAndTick(2);
    expect(assets('USDT')).toBe(usdt0 + USDT(7n));
  }, 60_000);

  it('waits out a stopped node, then resets its cursor on a dev chain restarted from genesis and credits new deposits', async () => {
    const usdt0 = assets('USDT');
    const before = (await t.ctx.chain.alerts()).length;
    await demo.stop();
    // The node is down: the tick fails quietly (logged) and changes nothing.
    await jobs.watcher!.tick();
    expect(assets('USDT')).toBe(usdt0);
    // A fresh dev chain on the same port (the demo restarted): none of the followed blocks is on it.
    demo = await startDemoChain(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir, devChainPort: PORT }), { blockIntervalMs: 0 });
    expect(demo.usdt).toBe(overrides.chainUsdtContract);
    await mineAndTick(0);
    const alerts = await t.ctx.chain.alerts();
    expect(alerts.length).toBe(before + 1);
    expect(alerts[0]).toMatchObject({ kind: 'cursor_reset' });
    const tx = await depositOk('USDT', '12');
    await mineAndTick(2);
    expect((await depositOf(tx))[0]!.status).toBe('CREDITED');
    expect(assets('USDT')).toBe(usdt0 + USDT(12n));
  }, 90_000);
});
