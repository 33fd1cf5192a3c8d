/**
 * The signer: the one module of the exchange that holds private keys. It is made from the wallet seed and gives
 * out only the hot wallet's address, the deposit account's xpub and signed withdrawal transactions; no function
 * returns a key. Hot wallet key: m/44'/60'/1'/0/0; deposit account xpub: m/44'/60'/0' (see src/hd.ts).
 */
import { HDKey } from '@scure/bip32';
import { encodeFunctionData, keccak256, toHex, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositXpubFromSeed, HOT_WALLET_PATH } from './hd';

/** One withdrawal to sign: an EIP-1559 transaction from the hot wallet. */
export interface WithdrawalToSign {
  /** The user's destination address: all lower case, or mixed case with a correct EIP-55 checksum. */
  to: Address;
  /** ERC-20 contract for a token withdrawal (USDT); null for native ETH. */
  token: Address | null;
  /** Chain units: wei for ETH, token units for a token (USDT: 6 decimals). Must be > 0. */
  amount: bigint;
  /** The hot wallet's account nonce to use. */
  nonce: number;
  /** EIP-1559 fee cap, wei per gas. */
  maxFeePerGas: bigint;
  /** EIP-1559 tip, wei per gas. */
  maxPriorityFeePerGas: bigint;
  /** Gas limit (21,000 for ETH; about 65,000 for an ERC-20 transfer). */
  gas: bigint;
}

/** A signed transaction, ready for sendRawTransaction; txHash = keccak256(rawTx), known before broadcast. */
export interface SignedWithdrawal {
  rawTx: Hex;
  txHash: Hex;
}

/** The signer's public face. */
export interface Signer {
  /** EIP-55 address of m/44'/60'/1'/0/0: pays every withdrawal. */
  hotWalletAddress: Address;
  /** xpub of m/44'/60'/0': derives the deposit addresses (hd.depositAddress). */
  depositXpub: string;
  /**
   * Signs a withdrawal for `chainId`: for ETH a plain value transfer to `to`; for a token a call of
   * `transfer(to, amount)` on the token contract with value 0. Throws RangeError on amount <= 0, a negative or
   * non-integer nonce, or gas <= 0, and viem's InvalidAddressError on a malformed `to`/`token` or a mixed-case
   * address whose EIP-55 checksum is wrong (validate users' addresses before they get here).
   */
  signWithdrawal(req: WithdrawalToSign): Promise<SignedWithdrawal>;
}

const TRANSFER_ABI = [
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
] as const;

/** Makes the signer from the wallet seed (16..64 bytes, e.g. newWalletSeed()) for the chain `chainId`. */
export function createSigner(seed: Uint8Array, chainId: number): Signer {
  const hot = HDKey.fromMasterSeed(seed).derive(HOT_WALLET_PATH);
  if (!hot.privateKey) throw new Error('createSigner: no hot wallet key');
  const account = privateKeyToAccount(toHex(hot.privateKey));
  hot.wipePrivateData();
  const depositXpub = depositXpubFromSeed(seed);
  return {
    hotWalletAddress: account.address,
    depositXpub,
    async signWithdrawal(req) {
      if (req.amount <= 0n) throw new RangeError('signWithdrawal: amount must be > 0');
      if (!Number.isSafeInteger(req.nonce) || req.nonce < 0) throw new RangeError(`signWithdrawal: bad nonce ${req.nonce}`);
      if (req.gas <= 0n) throw new RangeError('signWithdrawal: gas must be > 0');
      const common = {
        type: 'eip1559' as const,
        chainId,
        nonce: req.nonce,
        gas: req.gas,
        maxFeePerGas: req.maxFeePerGas,
        maxPriorityFeePerGas: req.maxPriorityFeePerGas,
      };
      const rawTx = await account.signTransaction(
        req.token === null
          ? { ...common, to: req.to, value: req.amount }
          : { ...common, to: req.token, value: 0n, data: encodeFunctionData({ abi: TRANSFER_ABI, functionName: 'transfer', args: [req.to, req.amount] }) },
      );
      return { rawTx, txHash: keccak256(rawTx) };
    },
  };
}
