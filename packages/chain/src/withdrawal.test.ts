/**
 * Proves on a real dev node (port 8602) what the withdrawal sender and the deposit watcher rely on: the signer's
 * ETH and USDT withdrawals land with exactly the signed amounts and hashes known before broadcast; broadcasting
 * the same raw transaction again (while pending and after it is mined) is harmless and moves money once; and
 * snapshot/revert removes a block so that the same number comes back with another hash (a reorg).
 */
import { mnemonicToSeedSync } from '@scure/bip39';
import { getAddress, parseEther, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient, fundFromFaucet, type ChainClient } from './client';
import { prepareDemoChain } from './demo';
import { startDevChain, type DevChain } from './devnode';
import { depositAddress } from './hd';
import { createSigner, type Signer } from './signer';

const seed = mnemonicToSeedSync('test walk nut penalty hip pave soap entry language right filter choice');
const alice: Address = getAddress('0xa11ce00000000000000000000000000000000a11');
const bob: Address = getAddress('0xb0b0000000000000000000000000000000000b0b');
let dev: DevChain;
let client: ChainClient;
let signer: Signer;
let usdt: Address;

async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(dev.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

async function signNext(req: { to: Address; token: Address | null; amount: bigint }): Promise<{ rawTx: Hex; txHash: Hex }> {
  const fees = await client.fees();
  const nonce = await client.nonce(signer.hotWalletAddress, 'pending');
  return signer.signWithdrawal({ ...req, nonce, gas: req.token ? 100_000n : 21_000n, ...fees });
}

beforeAll(async () => {
  dev = await startDevChain({ port: 8602, blockIntervalMs: 0 });
  client = createChainClient(dev.rpcUrl);
  signer = createSigner(seed, dev.chainId);
  ({ usdt } = await prepareDemoChain(dev, signer.hotWalletAddress));
});
afterAll(async () => {
  await dev?.stop();
});

describe('signed withdrawals on the dev chain', () => {
  it('an ETH withdrawal of 1.5 ETH arrives in full; the hot wallet pays it plus gas', async () => {
    const before = await client.balance(signer.hotWalletAddress);
    const { rawTx, txHash } = await signNext({ to: alice, token: null, amount: parseEther('1.5') });
    expect(await client.sendRawTransaction(rawTx)).toBe(txHash);
    const receipt = await client.receipt(txHash);
    expect(receipt?.status).toBe('success');
    expect(await client.balance(alice)).toBe(1_500_000_000_000_000_000n);
    const spent = before - (await client.balance(signer.hotWalletAddress));
    expect(receipt?.gasUsed).toBe(21_000n);
    expect(receipt!.effectiveGasPrice).toBeGreaterThan(0n);
    expect(spent).toBe(parseEther('1.5') + receipt!.gasUsed * receipt!.effectiveGasPrice);
    const block = await client.block(receipt!.blockNumber);
    expect(block?.transactions).toEqual([expect.objectContaining({ hash: txHash, from: signer.hotWalletAddress, to: alice, value: parseEther('1.5') })]);
  });

  it('a USDT withdrawal of 1,234.56 USDT calls transfer on the token: 1,234,560,000 token units arrive', async () => {
    const { rawTx, txHash } = await signNext({ to: bob, token: usdt, amount: 1_234_560_000n });
    await client.sendRawTransaction(rawTx);
    const receipt = await client.receipt(txHash);
    expect(receipt?.status).toBe('success');
    expect(await client.tokenBalance(usdt, bob)).toBe(1_234_560_000n);
    expect(await client.tokenBalance(usdt, signer.hotWalletAddress)).toBe(100_000_000_000_000n - 1_234_560_000n);
    const logs = await client.tokenTransfers(usdt, receipt!.blockNumber, receipt!.blockNumber);
    expect(logs).toEqual([
      { txHash, logIndex: 0, blockNumber: receipt!.blockNumber, blockHash: receipt!.blockHash, from: signer.hotWalletAddress, to: bob, value: 1_234_560_000n },
    ]);
    const tx = (await client.block(receipt!.blockNumber))?.transactions[0];
    expect(tx).toMatchObject({ to: usdt, value: 0n });
  });

  it('refuses to sign a zero amount, a negative nonce or no gas', async () => {
    const fees = await client.fees();
    const base = { to: alice, token: null, amount: 1n, nonce: 0, gas: 21_000n, ...fees };
    await expect(signer.signWithdrawal({ ...base, amount: 0n })).rejects.toThrow(RangeError);
    await expect(signer.signWithdrawal({ ...base, nonce: -1 })).rejects.toThrow(RangeError);
    await expect(signer.signWithdrawal({ ...base, gas: 0n })).rejects.toThrow(RangeError);
  });

  it('sending the same raw transaction twice while pending and again once mined answers the same hash and pays once', async () => {
    await rpc('evm_setAutomine', [false]);
    try {
      const nonceBefore = await client.nonce(signer.hotWalletAddress, 'latest');
      const { rawTx, txHash } = await signNext({ to: alice, token: usdt, amount: 7_000_000n });
      expect(await client.sendRawTransaction(rawTx)).toBe(txHash);
      expect(await client.sendRawTransaction(rawTx)).toBe(txHash);
      expect(await client.receipt(txHash)).toBeNull();
      expect(await client.nonce(signer.hotWalletAddress, 'pending')).toBe(nonceBefore + 1);
      expect(await client.nonce(signer.hotWalletAddress, 'latest')).toBe(nonceBefore);
      await client.mine(1);
      expect((await client.receipt(txHash))?.status).toBe('success');
      expect(await client.sendRawTransaction(rawTx)).toBe(txHash);
      await client.mine(1);
      expect(await client.tokenBalance(usdt, alice)).toBe(7_000_000n);
      expect(await client.nonce(signer.hotWalletAddress, 'latest')).toBe(nonceBefore + 1);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('a different transaction with a used nonce is still refused', async () => {
    const fees = await client.fees();
    const { rawTx } = await signer.signWithdrawal({ to: bob, token: null, amount: 5n, nonce: 0, gas: 21_000n, ...fees });
    await expect(client.sendRawTransaction(rawTx)).rejects.toThrow(/nonce/i);
  });
});

describe('the node unreachable', () => {
  it('a paused node answers nothing (requests time out) and, resumed, has kept its chain', async () => {
    const before = await client.head();
    const impatient = createChainClient(dev.rpcUrl, { timeoutMs: 300 });
    dev.pause();
    try {
      await expect(impatient.head()).rejects.toThrow();
    } finally {
      dev.resume();
    }
    expect(await impatient.head()).toEqual(before);
    expect(await client.tokenBalance(usdt, bob)).toBe(1_234_560_000n);
  });

  it('isContract tells the token contract from plain accounts', async () => {
    expect(await client.isContract(usdt)).toBe(true);
    expect(await client.isContract(alice)).toBe(false);
    expect(await client.isContract(signer.hotWalletAddress)).toBe(false);
  });
});

describe('reorgs on the dev chain', () => {
  it('revert to a snapshot removes a deposit block: the same number comes back with another hash and no deposit', async () => {
    const depositTo = depositAddress(signer.depositXpub, 42);
    const snap = await client.snapshot();
    const before = await client.head();
    const txHash = await fundFromFaucet(dev, depositTo, { token: usdt, amount: 5_000_000n });
    const mined = await client.receipt(txHash);
    expect(mined?.blockNumber).toBe(before.number + 1);
    expect(await client.tokenBalance(usdt, depositTo)).toBe(5_000_000n);

    await client.revert(snap);
    expect(await client.head()).toEqual(before);
    expect(await client.receipt(txHash)).toBeNull();
    await client.mine(1);
    const replaced = await client.block(before.number + 1);
    expect(replaced?.number).toBe(mined!.blockNumber);
    expect(replaced?.hash).not.toBe(mined!.blockHash);
    expect(replaced?.parentHash).toBe(before.hash);
    expect(replaced?.transactions).toEqual([]);
    expect(await client.tokenTransfers(usdt, before.number + 1, before.number + 1)).toEqual([]);
    expect(await client.tokenBalance(usdt, depositTo)).toBe(0n);
  });

  it('a snapshot id is spent by its revert', async () => {
    const snap = await client.snapshot();
    await client.revert(snap);
    await expect(client.revert(snap)).rejects.toThrow(/unknown snapshot/);
  });

  it('setBalance sets a wei balance (dev only)', async () => {
    await client.setBalance(bob, 123n);
    expect(await client.balance(bob)).toBe(123n);
  });
});
