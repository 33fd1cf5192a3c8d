/**
 * The dev chain's USDT: contracts/TetherToken.sol (OpenZeppelin ERC20, "Tether USD", USDT, the decimals given at
 * deployment, owner-only mint), compiled by scripts/compile.mjs into artifacts/TetherToken.json (committed).
 */
import { createWalletClient, createPublicClient, getAddress, getContractAddress, http, type Abi, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import artifact from '../artifacts/TetherToken.json' with { type: 'json' };
import { DEV_FAUCET_ADDRESS } from './devnode';
import { devChainDefinition } from './viem-chain';

/** Creation bytecode of TetherToken (solc 0.8.26, optimizer 200 runs, cancun). */
export const TOKEN_BYTECODE = artifact.bytecode as Hex;
/** USDT has 6 decimals on Ethereum, Arbitrum One and Polygon (1 USDT = 1,000,000 token units); the engine uses 8. */
export const USDT_DECIMALS = 6;
/** USDT on BNB Smart Chain ("BSC-USD", Binance-Peg) has 18 decimals. */
export const BSC_USDT_DECIMALS = 18;

/**
 * Where deployDemoToken puts the token on a fresh dev chain: the contract created by Hardhat account #0 (the
 * faucet) with its first transaction (nonce 0), the same on every fresh chain.
 */
export const DEV_USDT_ADDRESS: Address = getContractAddress({ from: DEV_FAUCET_ADDRESS, nonce: 0n });

/**
 * The typed part of TetherToken's ABI that the exchange calls: ERC-20 transfer, balanceOf, decimals, symbol,
 * totalSupply, the Transfer event, and the dev-only mint(to, amount). (The full ABI is in the artifact.)
 */
export const TOKEN_ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
  { type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint8' }] },
  { type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'totalSupply', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint256' }] },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const;

/**
 * Deploys TetherToken with `decimals` (default USDT_DECIMALS, 6) from `deployerKey` (who becomes its owner and the
 * only minter) and waits for the receipt. Returns the contract address; from Hardhat account #0 on a fresh chain that
 * is DEV_USDT_ADDRESS. Throws if the deployment reverts.
 */
export async function deployDemoToken(rpcUrl: string, deployerKey: Hex, decimals: number = USDT_DECIMALS): Promise<Address> {
  const transport = http(rpcUrl);
  const pub = createPublicClient({ transport });
  const chain = devChainDefinition(await pub.getChainId(), rpcUrl);
  const wallet = createWalletClient({ account: privateKeyToAccount(deployerKey), chain, transport });
  const hash = await wallet.deployContract({ abi: artifact.abi as Abi, bytecode: TOKEN_BYTECODE, args: [decimals] });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployDemoToken: deployment ${hash} failed`);
  return getAddress(receipt.contractAddress);
}
