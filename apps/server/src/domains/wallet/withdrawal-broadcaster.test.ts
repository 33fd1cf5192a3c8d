/**
 * Proves the withdrawal broadcaster against a real dev chain (Hardhat node on port 8641, blocks mined on demand), the
 * real engine and PGlite: an approved USDT and an approved ETH withdrawal are signed by the hot wallet, journaled
 * (BROADCASTING with nonce and hash) before they are sent, land on chain at the destination with amount - fee, go
 * CONFIRMING with their block and COMPLETED 3 blocks deep, the hold leaving the user. A node that refuses the first
 * send leaves the withdrawal BROADCASTING; the next pass (here by a fresh broadcaster: a process restart) re-sends the
 * same signed transaction: one transaction on chain (the hot wallet's nonce moves by one), the journaled hash. So does
 * a node that stops answering (its process paused) right after the transaction was journaled, once it answers again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createChainClient, type Address, type ChainClient } from '@exchange/chain';
import { loadConfig } from '../../platform/config/env';
import { openTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { insertAlert } from './chain.repository';
import { startDemoChain, type DemoChain } from './chain.service';
import { createWithdrawalBroadcaster, type WithdrawalBroadcaster } from './withdrawal-broadcaster';

const PORT = 8641;
const CONFIRMATIONS = 3;
let dataDir: string;
let demo: DemoChain;
let client: ChainClient;
let t: TestApp;
let alice: TestUser;
let clientIds = 0;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-broadcast-'));
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir, devChainPort: PORT });
  demo = await startDemoChain(base, { blockIntervalMs: 0 });
  client = createChainClient(demo.devChain.rpcUrl);
  t = await openTestApp(dataDir, {
    ...NO_RATE_LIMITS,
    chainRpcUrl: demo.devChain.rpcUrl,
    chainUsdtContract: demo.usdt,
    chainConfirmations: CONFIRMATIONS,
    chainJobs: true,
    devChainPort: PORT,
  });
  alice = await loginUser(t, 'alice@broadcaster.test');
  // Alice's funds for the test (a ledger deposit from the faucet account; chain deposits are the watcher's test).
  for (const [asset, amount] of [
    ['USDT', 1_000n * 10n ** 8n],
    ['ETH', 5n * 10n ** 8n],
  ] as const) {
    expect((await t.ctx.host.submit({ type: 'deposit', userId: alice.userId, asset, account: 'ASSETS', amount, from: '@faucet' })).code).toBe('ok');
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
  await demo?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A broadcaster on the test's context; `chainClient` may fail on purpose. */
function broadcaster(chainClient: ChainClient = client): WithdrawalBroadcaster {
  return createWithdrawalBroadcaster({
    host: t.ctx.host,
    client: chainClient,
    signer: t.ctx.chain.network('ETH')!.signer!,
    log: t.ctx.log,
    chain: 'ETH',
    coins: () => t.ctx.chain.network('ETH')!.coins(),
    confirmations: CONFIRMATIONS,
    resendMs: 0,
    alert: (kind, message) => insertAlert(t.ctx.db, { chain: 'ETH', kind, message }, new Date()),
  });
}

/** Requests an approved (no review) withdrawal of Alice's; answers its id. */
async function approvedWithdrawal(asset: string, to: Address, amount: bigint, fee: bigint): Promise<string> {
  const r = await t.ctx.host.submit({
    type: 'requestWithdrawal',
    userId: alice.userId,
    asset,
    chain: 'ETH',
    address: to,
    amount,
    fee,
    clientId: `w-${++clientIds}`,
    approvalsRequired: 0,
    dailyLimit: 10n ** 18n,
  });
  expect(r.code).toBe('ok');
  expect(r.withdrawal!.state).toBe('APPROVED');
  return r.withdrawal!.withdrawalId;
}

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const view = (id: string) => t.ctx.host.engine.withdrawal(id);
const held = (asset: string) => t.ctx.host.engine.balance(alice.userId, 'ASSETS', asset).frozen;

describe('withdrawals', () => {
  it('sends an approved USDT and ETH withdrawal from the hot wallet and completes them 3 blocks deep', async () => {
    const b = broadcaster();
    const usdtTo = fresh();
    const ethTo = fresh();
    const hot = t.ctx.chain.hotWalletAddress!;
    const nonce0 = await client.nonce(hot, 'latest');
    const usdtId = await approvedWithdrawal('USDT', usdtTo, 20n * 10n ** 8n, 10n ** 8n);
    const ethId = await approvedWithdrawal('ETH', ethTo, 10n ** 7n, 10n ** 5n);
    expect(held('USDT')).toBe(20n * 10n ** 8n);
    await b.tick();
    // Journaled with consecutive nonces of the hot wallet, then sent (the dev chain mines each at once).
    expect(view(usdtId)).toMatchObject({ state: 'BROADCASTING', from: hot, nonce: nonce0 });
    expect(view(ethId)).toMatchObject({ state: 'BROADCASTING', from: hot, nonce: nonce0 + 1 });
    expect(await client.tokenBalance(demo.usdt, usdtTo)).toBe(19_000_000n);
    expect(await client.balance(ethTo)).toBe(99_000_000_000_000_000n);
    await b.tick();
    const mined = (await client.receipt(view(usdtId)!.txHash as `0x${string}`))!;
    expect(view(usdtId)).toMatchObject({ state: 'CONFIRMING', blockNumber: mined.blockNumber });
    // USDT's block is 2 deep (ETH's is the head): one more block completes USDT, the next ETH.
    expect(view(ethId)!.state).toBe('CONFIRMING');
    await client.mine(1);
    await b.tick();
    expect(view(usdtId)).toBeUndefined();
    expect(view(ethId)!.state).toBe('CONFIRMING');
    await client.mine(1);
    await b.tick();
    // Final: out of the engine's open withdrawals; the hold left the user.
    expect(view(usdtId)).toBeUndefined();
    expect(view(ethId)).toBeUndefined();
    expect(held('USDT')).toBe(0n);
    expect(held('ETH')).toBe(0n);
    expect(await client.nonce(hot, 'latest')).toBe(nonce0 + 2);
    await t.ctx.host.projected();
  }, 60_000);

  it('a refused send stays BROADCASTING and is re-sent as the same transaction, never signed twice', async () => {
    const hot = t.ctx.chain.hotWalletAddress!;
    const nonce0 = await client.nonce(hot, 'latest');
    let refusals = 1;
    const flaky: ChainClient = {
      ...client,
      async sendRawTransaction(raw) {
        if (refusals-- > 0) throw new Error('connection refused (test)');
        return client.sendRawTransaction(raw);
      },
    };
    const to = fresh();
    const id = await approvedWithdrawal('USDT', to, 50n * 10n ** 8n, 10n ** 8n);
    await broadcaster(flaky).tick();
    const journaled = view(id)!;
    expect(journaled).toMatchObject({ state: 'BROADCASTING', nonce: nonce0 });
    expect(await client.receipt(journaled.txHash as `0x${string}`)).toBeNull();
    expect(await client.nonce(hot, 'latest')).toBe(nonce0);
    // A restarted process: a new broadcaster re-sends the journaled raw transaction.
    const again = broadcaster(flaky);
    await again.tick();
    const r = await client.receipt(journaled.txHash as `0x${string}`);
    expect(r?.status).toBe('success');
    expect(await client.nonce(hot, 'latest')).toBe(nonce0 + 1);
    expect(await client.tokenBalance(demo.usdt, to)).toBe(49_000_000n);
    await again.tick();
    await client.mine(2);
    await again.tick();
    expect(view(id)).toBeUndefined();
    expect(held('USDT')).toBe(0n);
    // Sending it once more is harmless: same hash, nothing new on chain.
    expect(await client.sendRawTransaction(journaled.rawTx as `0x${string}`)).toBe(journaled.txHash);
    expect(await client.nonce(hot, 'latest')).toBe(nonce0 + 1);
    expect(await client.tokenBalance(demo.usdt, to)).toBe(49_000_000n);
  }, 60_000);

  it('the node stopped right after the transaction was journaled: BROADCASTING until it answers, then one transaction', async () => {
    const hot = t.ctx.chain.hotWalletAddress!;
    const nonce0 = await client.nonce(hot, 'latest');
    // A client that gives up after 2 s; the node stops (its process paused) at the moment of the send.
    const impatient = createChainClient(demo.devChain.rpcUrl, { timeoutMs: 2_000 });
    const stopsAtSend: ChainClient = {
      ...impatient,
      async sendRawTransaction(raw) {
        demo.devChain.pause();
        return impatient.sendRawTransaction(raw);
      },
    };
    const to = fresh();
    const id = await approvedWithdrawal('ETH', to, 2n * 10n ** 7n, 10n ** 5n);
    await broadcaster(stopsAtSend).tick();
    const journaled = view(id)!;
    expect(journaled).toMatchObject({ state: 'BROADCASTING', nonce: nonce0 });
    // While the node does not answer, passes fail quietly and change nothing.
    const stuck = broadcaster(impatient);
    await stuck.tick();
    expect(view(id)).toMatchObject({ state: 'BROADCASTING', txHash: journaled.txHash, rawTx: journaled.rawTx });
    demo.devChain.resume();
    // The node answers again (a restarted process here): the journaled transaction is re-sent, never signed again.
    const again = broadcaster();
    await again.tick();
    expect((await client.receipt(journaled.txHash as `0x${string}`))?.status).toBe('success');
    expect(await client.nonce(hot, 'latest')).toBe(nonce0 + 1);
    expect(await client.balance(to)).toBe(199_000_000_000_000_000n);
    await again.tick();
    await client.mine(2);
    await again.tick();
    expect(view(id)).toBeUndefined();
    expect(held('ETH')).toBe(0n);
  }, 60_000);

  it('a transaction that reverts on chain fails the withdrawal, releases the hold and raises an alert', async () => {
    // More USDT than the hot wallet holds (100,000,000): the token's transfer reverts; the hot wallet pays the gas.
    const big = 150_000_000n * 10n ** 8n;
    expect((await t.ctx.host.submit({ type: 'deposit', userId: alice.userId, asset: 'USDT', account: 'ASSETS', amount: big, from: '@faucet' })).code).toBe(
      'ok',
    );
    const available0 = t.ctx.host.engine.balance(alice.userId, 'ASSETS', 'USDT').available;
    const to = fresh();
    const id = await approvedWithdrawal('USDT', to, big, 10n ** 8n);
    expect(t.ctx.host.engine.balance(alice.userId, 'ASSETS', 'USDT').available).toBe(available0 - big);
    const b = broadcaster();
    await b.tick();
    const txHash = view(id)!.txHash as `0x${string}`;
    expect((await client.receipt(txHash))?.status).toBe('reverted');
    await client.mine(2);
    await b.tick();
    expect(view(id)).toBeUndefined();
    expect(held('USDT')).toBe(0n);
    expect(t.ctx.host.engine.balance(alice.userId, 'ASSETS', 'USDT').available).toBe(available0);
    expect(await client.tokenBalance(demo.usdt, to)).toBe(0n);
    expect((await t.ctx.chain.alerts())[0]).toMatchObject({ kind: 'withdrawal_reverted', message: expect.stringContaining(txHash) });
  }, 60_000);
});
