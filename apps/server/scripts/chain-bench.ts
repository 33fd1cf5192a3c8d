/**
 * Measures the chain side of the wallet on a real dev chain (Hardhat node, one block a second as in the demo, every
 * transaction mined at once), the real engine and PGlite:
 * - deposit-to-credit latency: a USDT transfer to a user's deposit address is mined (its receipt seen) -> the
 *   creditDeposit command is journaled (depositCredited event), for `DEPOSITS` deposits one after another (at a random
 *   point of the block interval); the floor is (confirmations - 1) blocks of 1 s, plus up to the watcher's 1 s poll;
 * - withdrawal throughput: `WITHDRAWALS` withdrawals approved at once -> all COMPLETED (signed, journaled, sent, mined,
 *   `confirmations` deep), per second. Each transaction mines a block of its own on the dev chain, so the later ones
 *   bury the earlier ones: a real chain (12 s blocks, many transactions a block) would add its block time instead.
 * Usage: npx tsx apps/server/scripts/chain-bench.ts [confirmations=6] [port=8660]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/platform/config/env';
import { createContext } from '../src/main/context';
import { payFromDevFaucet, startDemoChain } from '../src/domains/wallet/chain.service';
import { createChainJobs } from '../src/domains/wallet/chain-jobs';

const confirmations = Number(process.argv[2] ?? 6);
const port = Number(process.argv[3] ?? 8660);
const DEPOSITS = 10;
const WITHDRAWALS = 50;

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return `min ${s[0]!.toFixed(0)} ms, median ${pct(50).toFixed(0)} ms, p90 ${pct(90).toFixed(0)} ms, max ${s[s.length - 1]!.toFixed(0)} ms`;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exch-chain-bench-'));
  const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, { dataDir, devChainPort: port, demoMode: true, marketMakers: false, orderRatePer10s: 0 });
  const demo = await startDemoChain(base);
  const config = { ...demo.config, chainConfirmations: confirmations, chainJobs: true };
  const ctx = await createContext(config);
  const jobs = createChainJobs(ctx);
  try {
    const reg = await ctx.host.submit({ type: 'registerUser', account: 'bench@chain.bench', uniqueKeys: [], profile: {} });
    const userId = reg.userId!;
    const address = ctx.chain.depositAddress(userId);
    await ctx.chain.addresses.ready();
    const credited = new Map<string, number>();
    const done = new Map<string, number>();
    ctx.host.onEvents((events) => {
      for (const ev of events) {
        if (ev.type === 'depositCredited') credited.set(ev.deposit.txHash, performance.now());
        if (ev.type === 'withdrawalUpdated' && ev.withdrawal.state === 'COMPLETED') done.set(ev.withdrawal.withdrawalId, performance.now());
      }
    });
    jobs.watcher!.start();
    jobs.broadcaster!.start();

    // ---- deposit-to-credit latency
    // One at a time (each waits for the previous credit): a transaction mines a block of its own, so overlapping
    // deposits would add blocks and reach their confirmations sooner than on a quiet chain.
    const latencies: number[] = [];
    for (let i = 0; i < DEPOSITS; i++) {
      const hash = await payFromDevFaucet(config.chainRpcUrl!, config.chainId, address, demo.usdt, BigInt(10 + i) * 1_000_000n);
      const minedAt = performance.now();
      while (!credited.has(hash)) await new Promise((r) => setTimeout(r, 20));
      latencies.push(credited.get(hash)! - minedAt);
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1000)));
    }

    // ---- withdrawal throughput
    const fund = await ctx.host.submit({ type: 'deposit', userId, asset: 'USDT', account: 'ASSETS', amount: 1_000_000n * 10n ** 8n, from: '@faucet' });
    if (fund.code !== 'ok') throw new Error(`funding: ${fund.code}`);
    const to = '0x52908400098527886E0F7030069857D2E4169EE7';
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < WITHDRAWALS; i++) {
      const r = await ctx.host.submit({
        type: 'requestWithdrawal',
        userId,
        asset: 'USDT',
        chain: 'ETH',
        address: to,
        amount: 20n * 10n ** 8n,
        fee: 10n ** 8n,
        clientId: `bench-${i}`,
        approvalsRequired: 0,
        dailyLimit: 10n ** 18n,
      });
      if (r.code !== 'ok') throw new Error(`requestWithdrawal: ${r.code}`);
      ids.push(r.withdrawal!.withdrawalId);
    }
    while (ids.some((id) => !done.has(id))) await new Promise((r) => setTimeout(r, 50));
    const seconds = (Math.max(...ids.map((id) => done.get(id)!)) - t0) / 1000;
    const landed = await ctx.chain.client!.tokenBalance(demo.usdt, to);

    console.log(`chain bench: dev chain 1 block/s, CHAIN_CONFIRMATIONS=${confirmations}, watcher and broadcaster polling every 1 s`);
    console.log(`  deposit mined -> creditDeposit journaled (${DEPOSITS} USDT deposits): ${stats(latencies)}`);
    console.log(
      `  ${WITHDRAWALS} approved withdrawals -> COMPLETED: ${seconds.toFixed(1)} s, ${(WITHDRAWALS / seconds).toFixed(2)} withdrawals/s (on chain at the destination: ${landed / 1_000_000n} USDT)`,
    );
  } finally {
    await jobs.stop();
    await ctx.close();
    await demo.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
