/**
 * @exchange/chain: the exchange's link to its EVM networks (Ethereum: native ETH and the USDT ERC-20; BNB Smart
 * Chain, Arbitrum One, Polygon: USDT).
 * - devnode: startDevChain, a Hardhat node child process for development, the demo and tests;
 * - token: the USDT contract (deployDemoToken, TOKEN_ABI, DEV_USDT_ADDRESS);
 * - hd: deposit addresses from the account xpub (depositAddress, depositXpubFromSeed, newWalletSeed);
 * - signer: the only holder of keys (createSigner: hot wallet address, deposit xpub, signWithdrawal);
 * - client: JSON-RPC reads and broadcast (createChainClient), fundFromFaucet for demo deposits;
 * - demo: prepareDemoChain (token, hot wallet and faucet funded).
 */
export { startDevChain, DEV_CHAIN_ID, DEV_FAUCET_ADDRESS, DEV_FAUCET_KEY, type DevChain, type DevChainOptions } from './devnode';
export { deployDemoToken, BSC_USDT_DECIMALS, DEV_USDT_ADDRESS, TOKEN_ABI, TOKEN_BYTECODE, USDT_DECIMALS } from './token';
export { depositAddress, depositXpubFromSeed, newWalletSeed, publicKeyToEthAddress, DEPOSIT_ACCOUNT_PATH, HOT_WALLET_PATH, MAX_DEPOSIT_INDEX } from './hd';
export { createSigner, type Signer, type SignedWithdrawal, type WithdrawalToSign } from './signer';
export {
  createChainClient,
  fundFromFaucet,
  type ChainBlock,
  type ChainClient,
  type ChainClientOptions,
  type ChainHead,
  type ChainReceipt,
  type ChainTx,
  type FaucetGrant,
  type TokenTransfer,
} from './client';
export { prepareDemoChain, demoUsdtMint, DEMO_HOT_WALLET_ETH, DEMO_USDT_MINT } from './demo';
export type { Address, Hex } from 'viem';
