/**
 * The chain client: a thin viem PublicClient over HTTP JSON-RPC with the reads the deposit watcher and the
 * withdrawal sender need, in plain shapes (block numbers and log indexes as JS numbers, amounts as bigint chain
 * units: wei or token units). Dev-only helpers (snapshot/revert/mine/setBalance) speak Hardhat's RPC methods.
 */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  keccak256,
  TransactionReceiptNotFoundError,
  TransactionNotFoundError,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { DevChain } from './devnode';
import { TOKEN_ABI } from './token';
import { devChainDefinition } from './viem-chain';

/** A block head: number and hash. */
export interface ChainHead {
  number: number;
  hash: Hex;
}

/** A transaction of a block (the fields the deposit watcher reads). */
export interface ChainTx {
  hash: Hex;
  /** EIP-55 checksummed. */
  from: Address;
  /** EIP-55 checksummed; null for a contract creation. */
  to: Address | null;
  /** Wei. */
  value: bigint;
  input: Hex;
  nonce: number;
  transactionIndex: number;
}

/** A block with its transactions. */
export interface ChainBlock {
  number: number;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
  transactions: ChainTx[];
}

/** One ERC-20 Transfer event log. */
export interface TokenTransfer {
  txHash: Hex;
  logIndex: number;
  blockNumber: number;
  blockHash: Hex;
  /** EIP-55 checksummed. */
  from: Address;
  /** EIP-55 checksummed. */
  to: Address;
  /** Token units (USDT: 6 decimals). */
  value: bigint;
}

/** A mined transaction's outcome. */
export interface ChainReceipt {
  status: 'success' | 'reverted';
  blockNumber: number;
  blockHash: Hex;
  /** Gas the transaction used. */
  gasUsed: bigint;
  /** Wei per gas paid; the network fee in wei is gasUsed * effectiveGasPrice. */
  effectiveGasPrice: bigint;
}

/** What createChainClient returns. Every method rejects on a transport error (node down, timeout). */
export interface ChainClient {
  /** The node's chain id (eth_chainId). */
  chainId(): Promise<number>;
  /** The latest block's number and hash. */
  head(): Promise<ChainHead>;
  /** Block `number` with its transactions; null if the chain is not that long yet. */
  block(number: number): Promise<ChainBlock | null>;
  /** Transfer logs of `token` in blocks fromBlock..toBlock (inclusive), in chain order. */
  tokenTransfers(token: Address, fromBlock: number, toBlock: number): Promise<TokenTransfer[]>;
  /** Wei at the latest block. */
  balance(address: Address): Promise<bigint>;
  /** True when `address` holds contract code (a token contract, a smart wallet), false for a plain account. */
  isContract(address: Address): Promise<boolean>;
  /** Token units of `token` held by `address` at the latest block. */
  tokenBalance(token: Address, address: Address): Promise<bigint>;
  /** The account's next nonce: counting pending transactions ('pending') or only mined ones ('latest'). */
  nonce(address: Address, blockTag: 'pending' | 'latest'): Promise<number>;
  /** EIP-1559 fee suggestion (wei per gas) for the next block. */
  fees(): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>;
  /**
   * Broadcasts a signed transaction and answers its hash (keccak256 of rawTx). Idempotent: when the node refuses
   * it as already known, or as "nonce too low" because this very transaction was already mined, it answers the
   * hash as for a first send (the node knows the transaction). Any other refusal, or "nonce too low" for a
   * different transaction with the same nonce, rejects with the node's error.
   */
  sendRawTransaction(rawTx: Hex): Promise<Hex>;
  /** The receipt of a mined transaction; null while it is pending or unknown. */
  receipt(hash: Hex): Promise<ChainReceipt | null>;
  /** DEV ONLY (Hardhat): snapshots the chain state; answers an id for revert. */
  snapshot(): Promise<Hex>;
  /**
   * DEV ONLY (Hardhat): goes back to the state of snapshot `id` (blocks after it disappear; the next block mined
   * has the same number as the first removed one but another hash: a reorg as the watcher sees it). A Hardhat
   * snapshot can be reverted to once: take a new one to revert again. Throws if the id is unknown.
   */
  revert(id: Hex): Promise<void>;
  /** DEV ONLY (Hardhat): mines `blocks` empty blocks at once. */
  mine(blocks: number): Promise<void>;
  /** DEV ONLY (Hardhat): sets the wei balance of an address. */
  setBalance(address: Address, wei: bigint): Promise<void>;
}

/** Options of createChainClient. */
export interface ChainClientOptions {
  /** Per-request timeout in ms (default 10,000); a request that gets no answer rejects after it. */
  timeoutMs?: number;
}

/**
 * Makes the chain client for a JSON-RPC endpoint over HTTP (no request is sent until a method is called). No
 * retries: a failed request rejects at once and the caller (the watcher's or broadcaster's loop) tries again later.
 */
export function createChainClient(rpcUrl: string, opts: ChainClientOptions = {}): ChainClient {
  const transport = http(rpcUrl, { retryCount: 0, timeout: opts.timeoutMs ?? 10_000 });
  const pub = createPublicClient({ transport });
  const test = createTestClient({ mode: 'hardhat', transport });
  return {
    chainId: () => pub.getChainId(),
    async head() {
      const b = await pub.getBlock({ blockTag: 'latest' });
      return { number: Number(b.number), hash: b.hash };
    },
    async block(number) {
      try {
        const b = await pub.getBlock({ blockNumber: BigInt(number), includeTransactions: true });
        return {
          number: Number(b.number),
          hash: b.hash,
          parentHash: b.parentHash,
          timestamp: Number(b.timestamp),
          transactions: b.transactions.map((t) => ({
            hash: t.hash,
            from: getAddress(t.from),
            to: t.to ? getAddress(t.to) : null,
            value: t.value,
            input: t.input,
            nonce: t.nonce,
            transactionIndex: t.transactionIndex ?? 0,
          })),
        };
      } catch (err) {
        if (err instanceof Error && err.name === 'BlockNotFoundError') return null;
        throw err;
      }
    },
    async tokenTransfers(token, fromBlock, toBlock) {
      const logs = await pub.getContractEvents({
        address: token,
        abi: TOKEN_ABI,
        eventName: 'Transfer',
        fromBlock: BigInt(fromBlock),
        toBlock: BigInt(toBlock),
        strict: true,
      });
      return logs.map((l) => ({
        txHash: l.transactionHash,
        logIndex: l.logIndex,
        blockNumber: Number(l.blockNumber),
        blockHash: l.blockHash,
        from: getAddress(l.args.from),
        to: getAddress(l.args.to),
        value: l.args.value,
      }));
    },
    balance: (address) => pub.getBalance({ address }),
    async isContract(address) {
      const code = await pub.getCode({ address });
      return code !== undefined && code !== '0x';
    },
    tokenBalance: (token, address) => pub.readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [address] }),
    nonce: (address, blockTag) => pub.getTransactionCount({ address, blockTag }),
    async fees() {
      const f = await pub.estimateFeesPerGas({ type: 'eip1559', chain: null });
      return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
    },
    async sendRawTransaction(rawTx) {
      const hash = keccak256(rawTx);
      try {
        return await pub.sendRawTransaction({ serializedTransaction: rawTx });
      } catch (err) {
        const text = err instanceof Error ? `${err.message} ${(err as { details?: string }).details ?? ''}`.toLowerCase() : '';
        if (/already known|known transaction|nonce too low|already imported|alreadyknown/.test(text)) {
          try {
            await pub.getTransaction({ hash });
            return hash;
          } catch (lookup) {
            if (!(lookup instanceof TransactionNotFoundError)) throw lookup;
          }
        }
        throw err;
      }
    },
    async receipt(hash) {
      try {
        const r = await pub.getTransactionReceipt({ hash });
        return { status: r.status, blockNumber: Number(r.blockNumber), blockHash: r.blockHash, gasUsed: r.gasUsed, effectiveGasPrice: r.effectiveGasPrice };
      } catch (err) {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw err;
      }
    },
    snapshot: () => test.snapshot(),
    async revert(id) {
      const ok: unknown = await test.request({ method: 'evm_revert', params: [id] });
      if (ok !== true) throw new Error(`revert: unknown snapshot ${id}`);
    },
    mine: (blocks) => test.mine({ blocks }),
    setBalance: (address, wei) => test.setBalance({ address, value: wei }),
  };
}

/** What fundFromFaucet sends: native ETH (token null) or a token, in chain units (wei / token units). */
export interface FaucetGrant {
  token: Address | null;
  amount: bigint;
}

/**
 * DEV ONLY: pays `to` from the dev chain's faucet account (Hardhat account #0, devChain.faucetKey) and waits for
 * the receipt: ETH as a plain transfer, a token as transfer(to, amount) (the faucet holds USDT after
 * prepareDemoChain). Answers the transaction hash; throws if it reverts (e.g. the faucet lacks the token).
 * A demo deposit is exactly this: a transfer to the user's deposit address.
 */
export async function fundFromFaucet(devChain: Pick<DevChain, 'rpcUrl' | 'chainId' | 'faucetKey'>, to: Address, grant: FaucetGrant): Promise<Hex> {
  const transport = http(devChain.rpcUrl);
  const pub = createPublicClient({ transport });
  const wallet = createWalletClient({
    account: privateKeyToAccount(devChain.faucetKey),
    chain: devChainDefinition(devChain.chainId, devChain.rpcUrl),
    transport,
  });
  const hash =
    grant.token === null
      ? await wallet.sendTransaction({ to, value: grant.amount })
      : await wallet.writeContract({ address: grant.token, abi: TOKEN_ABI, functionName: 'transfer', args: [to, grant.amount] });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== 'success') throw new Error(`fundFromFaucet: ${hash} reverted`);
  return hash;
}
