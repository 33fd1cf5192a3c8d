/**
 * Proves on a real dev node (port 8601) that the USDT contract deploys from the faucet account at
 * DEV_USDT_ADDRESS with USDT's name, symbol and 6 decimals, that prepareDemoChain funds the hot wallet and the
 * faucet with the stated amounts, and that a faucet transfer (a demo deposit) shows in balances and in the
 * Transfer logs read by tokenTransfers. A second dev node (port 8606, chain id 31338) stands for BNB Smart Chain: its
 * USDT has 18 decimals and the same address.
 */
import { createPublicClient, http, parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient, fundFromFaucet } from './client';
import { DEMO_HOT_WALLET_ETH, DEMO_USDT_MINT, demoUsdtMint, prepareDemoChain } from './demo';
import { DEV_FAUCET_ADDRESS, startDevChain, type DevChain } from './devnode';
import artifact from '../artifacts/TetherToken.json' with { type: 'json' };
import { BSC_USDT_DECIMALS, DEV_USDT_ADDRESS, TOKEN_ABI } from './token';

const hotWallet: Address = '0x1111111111111111111111111111111111111111';
const depositAddr: Address = '0x2222222222222222222222222222222222222222';
let dev: DevChain;
let usdt: Address;

beforeAll(async () => {
  dev = await startDevChain({ port: 8601, blockIntervalMs: 0 });
  ({ usdt } = await prepareDemoChain(dev, hotWallet));
});
afterAll(async () => {
  await dev?.stop();
});

describe('the dev USDT token', () => {
  it('is deployed at DEV_USDT_ADDRESS as "Tether USD" / USDT with 6 decimals', async () => {
    expect(usdt).toBe(DEV_USDT_ADDRESS);
    expect(usdt).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    const pub = createPublicClient({ transport: http(dev.rpcUrl) });
    expect(await pub.readContract({ address: usdt, abi: TOKEN_ABI, functionName: 'symbol' })).toBe('USDT');
    expect(await pub.readContract({ address: usdt, abi: TOKEN_ABI, functionName: 'decimals' })).toBe(6);
    expect(await pub.readContract({ address: usdt, abi: TOKEN_ABI, functionName: 'totalSupply' })).toBe(2n * DEMO_USDT_MINT);
  });

  it('TOKEN_ABI (hand-typed) matches the compiled artifact entry by entry', () => {
    const compiled = artifact.abi as { type: string; name?: string; inputs?: { type: string }[]; outputs?: { type: string }[] }[];
    const shape = (e: { type: string; name?: string; inputs?: readonly { type: string }[]; outputs?: readonly { type: string }[] }) =>
      `${e.type} ${e.name}(${(e.inputs ?? []).map((i) => i.type).join(',')})->(${(e.outputs ?? []).map((o) => o.type).join(',')})`;
    const compiledShapes = new Set(compiled.map(shape));
    for (const entry of TOKEN_ABI) expect(compiledShapes, shape(entry)).toContain(shape(entry));
  });

  it('prepareDemoChain gave 100,000,000 USDT to the hot wallet and the faucet and 10,000 ETH to the hot wallet', async () => {
    const client = createChainClient(dev.rpcUrl);
    expect(DEMO_USDT_MINT).toBe(100_000_000_000_000n);
    expect(await client.tokenBalance(usdt, hotWallet)).toBe(100_000_000_000_000n);
    expect(await client.tokenBalance(usdt, DEV_FAUCET_ADDRESS)).toBe(100_000_000_000_000n);
    expect(await client.balance(hotWallet)).toBe(DEMO_HOT_WALLET_ETH);
    expect(DEMO_HOT_WALLET_ETH).toBe(parseEther('10000'));
  });

  it('a faucet transfer of 250.5 USDT lands and is read back by tokenTransfers with its block and log index', async () => {
    const client = createChainClient(dev.rpcUrl);
    const txHash = await fundFromFaucet(dev, depositAddr, { token: usdt, amount: 250_500_000n });
    expect(await client.tokenBalance(usdt, depositAddr)).toBe(250_500_000n);
    const receipt = await client.receipt(txHash);
    expect(receipt?.status).toBe('success');
    const head = await client.head();
    const all = await client.tokenTransfers(usdt, 0, head.number);
    const mine = all.filter((t) => t.txHash === txHash);
    expect(mine).toEqual([
      { txHash, logIndex: 0, blockNumber: receipt!.blockNumber, blockHash: receipt!.blockHash, from: DEV_FAUCET_ADDRESS, to: depositAddr, value: 250_500_000n },
    ]);
    // The two demo mints come first, from the zero address.
    expect(all.slice(0, 2).map((t) => [t.from, t.to, t.value])).toEqual([
      ['0x0000000000000000000000000000000000000000', hotWallet, DEMO_USDT_MINT],
      ['0x0000000000000000000000000000000000000000', DEV_FAUCET_ADDRESS, DEMO_USDT_MINT],
    ]);
    expect(await client.tokenTransfers(usdt, head.number + 1, head.number + 5)).toEqual([]);
  });

  it('a faucet ETH transfer shows in the block with its value and addresses', async () => {
    const client = createChainClient(dev.rpcUrl);
    const txHash = await fundFromFaucet(dev, depositAddr, { token: null, amount: 1_000_000_000_000_000_123n });
    expect(await client.balance(depositAddr)).toBe(1_000_000_000_000_000_123n);
    const receipt = await client.receipt(txHash);
    const block = await client.block(receipt!.blockNumber);
    expect(block?.hash).toBe(receipt!.blockHash);
    expect(block?.transactions.find((t) => t.hash === txHash)).toMatchObject({ from: DEV_FAUCET_ADDRESS, to: depositAddr, value: 1_000_000_000_000_000_123n });
  });
});

describe('a second network', () => {
  it('a dev node with its own chain id carries an 18-decimal USDT at the same address, minted 10^8 USDT in its units', async () => {
    const bsc = await startDevChain({ port: 8606, blockIntervalMs: 0, chainId: 31338 });
    try {
      const client = createChainClient(bsc.rpcUrl);
      expect([bsc.chainId, await client.chainId()]).toEqual([31338, 31338]);
      const { usdt: token } = await prepareDemoChain(bsc, hotWallet, BSC_USDT_DECIMALS);
      expect(token).toBe(DEV_USDT_ADDRESS);
      const pub = createPublicClient({ transport: http(bsc.rpcUrl) });
      expect(await pub.readContract({ address: token, abi: TOKEN_ABI, functionName: 'decimals' })).toBe(18);
      expect(demoUsdtMint(18)).toBe(100_000_000n * 10n ** 18n);
      expect(await client.tokenBalance(token, hotWallet)).toBe(demoUsdtMint(18));
    } finally {
      await bsc.stop();
    }
  }, 60_000);
  it('refuses a chain id that is not a positive integer', async () => {
    await expect(startDevChain({ port: 8607, chainId: 0 })).rejects.toThrow(RangeError);
  });
});
