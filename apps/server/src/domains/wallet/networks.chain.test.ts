/**
 * USDT on several EVM networks against real dev chains (three Hardhat nodes from @exchange/chain: Ethereum on 8660,
 * BNB Smart Chain on 8661 with an 18-decimal USDT, Arbitrum One on 8662; blocks mined only on demand), the real
 * engine and PGlite: a demo deposit on BSC is seen by BSC's watcher only and credited in engine units (10^18 token
 * units = 1 USDT), a withdrawal on Arbitrum is signed for Arbitrum's chain id with Arbitrum's own nonce while an
 * Ethereum withdrawal of the same hot wallet address is in flight, and lands there (not on Ethereum); the console's
 * hot wallet rows and the proof of reserves give each network's balances and their total.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createChainClient, type Address, type ChainClient, type Hex } from '@exchange/chain';
import { loadConfig } from '../../platform/config/env';
import { openTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { loginUser, type TestUser } from '../kyc/kyc-test-support';
import { listDeposits } from './chain.repository';
import { startDemoChain, type DemoChain } from './chain.service';
import { createChainJobs, type ChainJobs } from './chain-jobs';
import { sumOverNetworks } from '../reserves/reserves.service';

const PORT = 8660;
const CONFIRMATIONS = 3;
let dataDir: string;
let demo: DemoChain;
const clients = new Map<string, ChainClient>();
let t: TestApp;
let jobs: ChainJobs;
let alice: TestUser;
let clientIds = 0;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-networks-'));
  const base = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', CHAIN_NETWORKS: 'BSC,ARBITRUM', CHAIN_CONFIRMATIONS: String(CONFIRMATIONS) },
    { dataDir, devChainPort: PORT },
  );
  demo = await startDemoChain(base, { blockIntervalMs: 0 });
  for (const [code, c] of demo.devChains) clients.set(code, createChainClient(c.rpcUrl));
  t = await openTestApp(dataDir, {
    ...NO_RATE_LIMITS,
    chainRpcUrl: demo.config.chainRpcUrl,
    chainUsdtContract: demo.config.chainUsdtContract,
    chainConfirmations: CONFIRMATIONS,
    extraNetworks: demo.config.extraNetworks,
    chainJobs: true,
    demoMode: true,
    devChainPort: PORT,
  });
  jobs = createChainJobs(t.ctx);
  alice = await loginUser(t, 'alice@networks.test');
}, 180_000);
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
  await demo?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const client = (code: string) => clients.get(code)!;
const assets = (coin: string) => t.ctx.host.engine.balance(alice.userId, 'ASSETS', coin).available;
const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const view = (id: string) => t.ctx.host.engine.withdrawal(id);

async function demoDeposit(coin: string, chain: string, amount: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/asset/wallet/demoDeposit',
    headers: { ...alice.headers, lang: 'en' },
    payload: { coin, chain, amount },
  });
}

/** Mines `n` blocks on `code` and lets every network's watcher catch up. */
async function mineAndTick(code: string, n: number): Promise<void> {
  if (n > 0) await client(code).mine(n);
  for (const j of jobs.byNetwork.values()) await j.watcher.tick();
}

/** An approved (no review) withdrawal of Alice's on `chain`; answers its id. */
async function approvedWithdrawal(asset: string, chain: string, to: Address, amount: bigint, fee: bigint): Promise<string> {
  const r = await t.ctx.host.submit({
    type: 'requestWithdrawal',
    userId: alice.userId,
    asset,
    chain,
    address: to,
    amount,
    fee,
    clientId: `n-${++clientIds}`,
    approvalsRequired: 0,
    dailyLimit: 10n ** 18n,
  });
  expect(r.code).toBe('ok');
  return r.withdrawal!.withdrawalId;
}

describe('USDT on several networks', () => {
  it('runs a watcher and a broadcaster per network; the signers sign for each network chain id', () => {
    expect([...jobs.byNetwork.keys()]).toEqual(['ETH', 'BSC', 'ARBITRUM']);
    expect(t.ctx.chain.networks.map((n) => [n.code, n.chainId, n.signer?.hotWalletAddress === t.ctx.chain.hotWalletAddress])).toEqual([
      ['ETH', 31337, true],
      ['BSC', 31338, true],
      ['ARBITRUM', 31339, true],
    ]);
  });

  it('a BSC deposit (18-decimal USDT) is seen by BSC only and credited once 3 blocks deep', async () => {
    const usdt0 = assets('USDT');
    const res = await demoDeposit('USDT', 'BSC', '12.5');
    expect(res.json()).toMatchObject({ status: 'SUCCEED' });
    const txHash = res.json().result.txHash as Hex;
    // the transaction is on the BSC dev chain and nowhere else
    expect((await client('BSC').receipt(txHash))?.status).toBe('success');
    expect(await client('ETH').receipt(txHash)).toBeNull();
    await mineAndTick('BSC', 0);
    const rows = (await listDeposits(t.ctx.db, alice.userId, { limit: 10, offset: 0 })).rows.filter((r) => r.txHash === txHash.toLowerCase());
    expect(rows.map((r) => [r.chain, r.status, r.amount, r.chainAmount])).toEqual([['BSC', 'CONFIRMING', '1250000000', '12500000000000000000']]);
    expect(assets('USDT')).toBe(usdt0);
    // blocks on Ethereum do not confirm a BSC deposit
    await mineAndTick('ETH', 5);
    expect(assets('USDT')).toBe(usdt0);
    await mineAndTick('BSC', 2);
    expect(assets('USDT')).toBe(usdt0 + 1_250_000_000n);
    expect(t.ctx.host.engine.depositCredited('BSC', txHash.toLowerCase(), 0)).toBe(true);
    expect(t.ctx.host.engine.depositCredited('ETH', txHash.toLowerCase(), 0)).toBe(false);
    // the record names its network and counts BSC's confirmations
    const records = await t.app.inject({
      method: 'GET',
      url: '/api/asset/wallet/getRecords?type=coinCharging&coin=USDT',
      headers: { ...alice.headers, lang: 'en' },
    });
    const rec = (records.json().result.deposits as Array<{ txHash: string; chain: string; status: string; confirmations: number }>).find(
      (d) => d.txHash === txHash.toLowerCase(),
    );
    expect(rec).toMatchObject({ chain: 'BSC', status: 'CREDITED', confirmations: CONFIRMATIONS });
  }, 60_000);

  it('refuses a demo deposit of a coin a network does not carry, and on a network not configured', async () => {
    const before = assets('USDT');
    for (const [coin, chain] of [
      ['ETH', 'BSC'],
      ['USDT', 'MATIC'],
      ['USDT', 'TRX'],
    ]) {
      const res = await demoDeposit(coin!, chain!, '1');
      expect([coin, chain, res.statusCode, res.json().errorCode]).toEqual([coin, chain, 400, 'chain_not_available']);
    }
    expect(assets('USDT')).toBe(before);
  });

  it('an Arbitrum withdrawal takes Arbitrum nonce while an Ethereum one of the same hot wallet is in flight, and lands on Arbitrum', async () => {
    const hot = t.ctx.chain.hotWalletAddress!;
    await demoDeposit('USDT', 'ETH', '100');
    await mineAndTick('ETH', 3);
    expect(assets('USDT')).toBeGreaterThanOrEqual(100n * 10n ** 8n);
    const ethNonce0 = await client('ETH').nonce(hot, 'latest');
    const arbNonce0 = await client('ARBITRUM').nonce(hot, 'latest');
    const ethTo = fresh();
    const arbTo = fresh();
    const ethId = await approvedWithdrawal('USDT', 'ETH', ethTo, 30n * 10n ** 8n, 10n ** 8n);
    await jobs.byNetwork.get('ETH')!.broadcaster!.tick();
    expect(view(ethId)).toMatchObject({ state: 'BROADCASTING', nonce: ethNonce0 });
    // Ethereum's withdrawal is still open (not 3 blocks deep) when Arbitrum's is signed
    const arbId = await approvedWithdrawal('USDT', 'ARBITRUM', arbTo, 20n * 10n ** 8n, 20_000_000n);
    await jobs.byNetwork.get('ARBITRUM')!.broadcaster!.tick();
    expect(view(arbId)).toMatchObject({ state: 'BROADCASTING', from: hot, nonce: arbNonce0 });
    // 20 - 0.2 USDT in Arbitrum's 6-decimal units, on Arbitrum; nothing of it on Ethereum
    const usdt = demo.config.chainUsdtContract as Address;
    expect(await client('ARBITRUM').tokenBalance(usdt, arbTo)).toBe(19_800_000n);
    expect(await client('ETH').tokenBalance(usdt, arbTo)).toBe(0n);
    expect(await client('ETH').tokenBalance(usdt, ethTo)).toBe(29_000_000n);
    expect(await client('ETH').nonce(hot, 'latest')).toBe(ethNonce0 + 1);
    expect(await client('ARBITRUM').nonce(hot, 'latest')).toBe(arbNonce0 + 1);
    // each completes on its own network's confirmations
    for (const code of ['ETH', 'ARBITRUM']) {
      await client(code).mine(3);
      await jobs.byNetwork.get(code)!.broadcaster!.tick();
      await jobs.byNetwork.get(code)!.broadcaster!.tick();
    }
    expect(view(ethId)).toBeUndefined();
    expect(view(arbId)).toBeUndefined();
  }, 60_000);

  it('the console hot wallet and the proof of reserves give each network and the total', async () => {
    const rows = await t.ctx.chain.hotWallet();
    expect(rows.map((r) => [r.chain, r.coin])).toEqual([
      ['ETH', 'ETH'],
      ['ETH', 'USDT'],
      ['BSC', 'USDT'],
      ['ARBITRUM', 'USDT'],
    ]);
    const byNetwork = await t.ctx.chain.onChainReservesByNetwork();
    const usdtOf = (code: string) => byNetwork.get(code)!.get('USDT')!;
    // Alice's BSC deposit address holds the 12.5 USDT of her deposit, beside the hot wallet's 100,000,000
    expect(usdtOf('BSC')).toBe(100_000_000n * 10n ** 8n + 1_250_000_000n);
    expect(usdtOf('ARBITRUM')).toBe(100_000_000n * 10n ** 8n - 1_980_000_000n);
    const total = sumOverNetworks(byNetwork);
    expect(total.get('USDT')).toBe(usdtOf('ETH') + usdtOf('BSC') + usdtOf('ARBITRUM'));
    await t.ctx.reserves.takeSnapshot(null);
    const root = await t.ctx.reserves.root();
    const usdt = root.totals.find((x) => x.coin === 'USDT')!;
    expect(usdt.networks.map((n) => n.chain)).toEqual(['ETH', 'BSC', 'ARBITRUM']);
    const sum = usdt.networks.reduce((s, n) => s + BigInt(n.reserves.replace('.', '')), 0n);
    expect(sum).toBe(BigInt(usdt.reserves.replace('.', '')));
    expect(root.totals.find((x) => x.coin === 'ETH')!.networks.map((n) => n.chain)).toEqual(['ETH']);
  }, 60_000);
});
