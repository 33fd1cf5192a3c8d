/**
 * DEV ONLY: sets up a fresh dev chain for the demo and tests: the USDT token, and money in the hot wallet and the
 * faucet so that withdrawals can be paid and demo deposits made.
 */
import { createPublicClient, createWalletClient, http, parseEther, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChain } from './devnode';
import { deployDemoToken, TOKEN_ABI, USDT_DECIMALS } from './token';
import { devChainDefinition } from './viem-chain';

/** 100,000,000 USDT in token units of a 6-decimal USDT (demoUsdtMint(6)). */
export const DEMO_USDT_MINT = 100_000_000n * 10n ** 6n;

/** 100,000,000 USDT in token units of a USDT with `decimals` decimals. */
export function demoUsdtMint(decimals: number): bigint {
  return 100_000_000n * 10n ** BigInt(decimals);
}
/** 10,000 ETH in wei. */
export const DEMO_HOT_WALLET_ETH = parseEther('10000');

/**
 * Deploys TetherToken with `usdtDecimals` (default 6; 18 for BNB Smart Chain's USDT) from the faucet account (on a
 * fresh chain: at DEV_USDT_ADDRESS), mints 100,000,000 USDT to the hot wallet and to the faucet, and sends
 * DEMO_HOT_WALLET_ETH (the chain's native coin: gas, and ETH withdrawals on Ethereum) to the hot wallet.
 * Waits for every receipt. Answers the token address.
 */
export async function prepareDemoChain(
  devChain: Pick<DevChain, 'rpcUrl' | 'chainId' | 'faucetKey'>,
  hotWallet: Address,
  usdtDecimals: number = USDT_DECIMALS,
): Promise<{ usdt: Address }> {
  const usdt = await deployDemoToken(devChain.rpcUrl, devChain.faucetKey, usdtDecimals);
  const mint = demoUsdtMint(usdtDecimals);
  const transport = http(devChain.rpcUrl);
  const pub = createPublicClient({ transport });
  const faucet = privateKeyToAccount(devChain.faucetKey);
  const wallet = createWalletClient({ account: faucet, chain: devChainDefinition(devChain.chainId, devChain.rpcUrl), transport });
  const hashes = [
    await wallet.writeContract({ address: usdt, abi: TOKEN_ABI, functionName: 'mint', args: [hotWallet, mint] }),
    await wallet.writeContract({ address: usdt, abi: TOKEN_ABI, functionName: 'mint', args: [faucet.address, mint] }),
    await wallet.sendTransaction({ to: hotWallet, value: DEMO_HOT_WALLET_ETH }),
  ];
  for (const hash of hashes) {
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
    if (receipt.status !== 'success') throw new Error(`prepareDemoChain: ${hash} reverted`);
  }
  return { usdt };
}
