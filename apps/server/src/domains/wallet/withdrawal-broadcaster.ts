/**
 * The withdrawal broadcaster: sends approved withdrawals from the hot wallet and follows them to completion.
 *
 * Every `pollMs` (1 s), over the engine's open withdrawals of the chain (oldest first):
 * - APPROVED: the hot wallet's next nonce = max(the node's pending nonce (asked once a pass, then counted up), the
 *   highest nonce journaled by an open withdrawal + 1); the signer signs `amount - fee` (converted to chain units) to the address; broadcastWithdrawal
 *   {from, nonce, txHash, rawTx} is journaled FIRST, and only then the raw transaction is sent. A crash or a node
 *   failure between the two leaves it BROADCASTING with its signed transaction: it is re-sent, never signed again.
 * - BROADCASTING (and CONFIRMING whose transaction the node lost in a reorg): the same raw transaction is re-sent
 *   while no receipt is seen (at most every `resendMs`); a receipt -> withdrawalMined with its block.
 * - CONFIRMING: `confirmations` deep (its own block counts as 1) -> completeWithdrawal when the transaction succeeded,
 *   failWithdrawal (hold released) when it reverted; a receipt in another block (reorg) -> withdrawalMined again.
 * An engine refusal (e.g. an operator rejected it meanwhile) discards the signed transaction: it was never sent.
 */
import { createPollingJob, type PollingJob } from './polling-job';
import type { FastifyBaseLogger } from 'fastify';
import type { WithdrawalView } from '@exchange/core';
import type { Address, ChainClient, Hex, Signer } from '@exchange/chain';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { ChainCoin } from './chain.service';
import { engineToChain } from './chains';

/** Gas limit of a native transfer, and of an ERC-20 transfer (a Tether-like transfer uses about 35 000 to 52 000). */
export const NATIVE_TRANSFER_GAS = 21_000n;
export const TOKEN_TRANSFER_GAS = 100_000n;

/** What the broadcaster needs. */
export interface WithdrawalBroadcasterDeps {
  host: Pick<EnginePort, 'engine' | 'submit'>;
  client: Pick<ChainClient, 'head' | 'nonce' | 'fees' | 'sendRawTransaction' | 'receipt'>;
  signer: Pick<Signer, 'hotWalletAddress' | 'signWithdrawal'>;
  log: FastifyBaseLogger;
  chain: string;
  coins: () => readonly ChainCoin[];
  confirmations: number;
  /** Records an operator alert (chain_alerts): a reverted withdrawal transaction ('withdrawal_reverted'). */
  alert?: (kind: string, message: string) => Promise<void>;
  pollMs?: number;
  /** least time between two sends of the same transaction while it has no receipt (default 5000 ms) */
  resendMs?: number;
  now?: () => number;
}

/** A running broadcaster. */
export type WithdrawalBroadcaster = PollingJob;

/** Creates the broadcaster (not started). */
export function createWithdrawalBroadcaster(deps: WithdrawalBroadcasterDeps): WithdrawalBroadcaster {
  const { host, client, signer, log, chain } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const resendMs = deps.resendMs ?? 5000;
  const now = deps.now ?? Date.now;
  const hot = signer.hotWalletAddress;
  /** withdrawal id -> last send attempt (ms); empty after a restart, so everything unseen is re-sent at once. */
  const lastSend = new Map<string, number>();

  async function send(w: WithdrawalView, rawTx: Hex): Promise<void> {
    lastSend.set(w.withdrawalId, now());
    try {
      await client.sendRawTransaction(rawTx);
      log.info({ withdrawalId: w.withdrawalId, txHash: w.txHash, nonce: w.nonce }, 'withdrawal sent');
    } catch (err) {
      // Stays BROADCASTING with its signed transaction; re-sent on a later pass.
      log.warn({ err, withdrawalId: w.withdrawalId, txHash: w.txHash }, 'withdrawal send failed; will re-send the same transaction');
    }
  }

  /** Per pass: the fee suggestion and the next nonce, asked of the node once and then counted up locally. */
  interface Pass {
    fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    nonce?: number;
  }

  async function sign(w: WithdrawalView, coin: ChainCoin, pass: Pass): Promise<void> {
    let amount: bigint;
    try {
      amount = engineToChain(w.amount - w.fee, coin.chainDecimals);
    } catch (err) {
      log.error({ err, withdrawalId: w.withdrawalId }, 'withdrawal amount does not convert to chain units; failing it');
      await host.submit({ type: 'failWithdrawal', withdrawalId: w.withdrawalId, reason: 'amount_not_representable' });
      return;
    }
    const journaled = host.engine
      .openWithdrawals()
      // the hot wallet has the same address on every network, and a nonce per network
      .filter((o) => o.chain === chain && o.nonce !== null && o.from !== null && o.from.toLowerCase() === hot.toLowerCase())
      .reduce((m, o) => Math.max(m, (o.nonce as number) + 1), 0);
    pass.nonce ??= await client.nonce(hot, 'pending');
    const nonce = Math.max(pass.nonce, journaled);
    const fees = (pass.fees ??= await client.fees());
    const signed = await signer.signWithdrawal({
      to: w.address as Address,
      token: coin.token,
      amount,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      gas: coin.token === null ? NATIVE_TRANSFER_GAS : TOKEN_TRANSFER_GAS,
    });
    const r = await host.submit({ type: 'broadcastWithdrawal', withdrawalId: w.withdrawalId, from: hot, nonce, txHash: signed.txHash, rawTx: signed.rawTx });
    if (r.code !== 'ok') {
      log.warn({ withdrawalId: w.withdrawalId, code: r.code }, 'broadcastWithdrawal refused; the signed transaction is discarded (never sent)');
      return;
    }
    pass.nonce = nonce + 1;
    await send(r.withdrawal ?? { ...w, txHash: signed.txHash, nonce }, signed.rawTx);
  }

  async function follow(w: WithdrawalView, headNumber: number): Promise<void> {
    const receipt = await client.receipt(w.txHash as Hex);
    if (receipt === null) {
      const last = lastSend.get(w.withdrawalId);
      if (w.rawTx !== null && (last === undefined || now() - last >= resendMs)) await send(w, w.rawTx as Hex);
      return;
    }
    if (w.state === 'BROADCASTING' || w.blockNumber !== receipt.blockNumber) {
      const r = await host.submit({ type: 'withdrawalMined', withdrawalId: w.withdrawalId, blockNumber: receipt.blockNumber });
      if (r.code !== 'ok') log.warn({ withdrawalId: w.withdrawalId, code: r.code }, 'withdrawalMined refused');
    }
    if (headNumber - receipt.blockNumber + 1 < deps.confirmations) return;
    const r =
      receipt.status === 'success'
        ? await host.submit({ type: 'completeWithdrawal', withdrawalId: w.withdrawalId, blockNumber: receipt.blockNumber })
        : await host.submit({ type: 'failWithdrawal', withdrawalId: w.withdrawalId, reason: 'transaction_reverted' });
    if (r.code !== 'ok') {
      log.warn({ withdrawalId: w.withdrawalId, code: r.code }, 'withdrawal completion refused');
      return;
    }
    lastSend.delete(w.withdrawalId);
    if (receipt.status === 'success') {
      log.info({ withdrawalId: w.withdrawalId, txHash: w.txHash }, 'withdrawal completed');
      return;
    }
    // The hold went back to the user; the hot wallet paid the gas. An operator should know why (e.g. too few tokens).
    const message = `withdrawal ${w.withdrawalId} (${w.asset}, user ${w.userId}) reverted on chain: ${w.txHash} in block ${receipt.blockNumber}; failed, hold released`;
    log.error({ withdrawalId: w.withdrawalId, txHash: w.txHash }, message);
    await deps.alert?.('withdrawal_reverted', message);
  }

  async function once(): Promise<void> {
    const open = host.engine.openWithdrawals().filter((w) => w.chain === chain && w.state !== 'REVIEW');
    if (open.length === 0) return;
    const coins = new Map(deps.coins().map((c) => [c.coin, c]));
    const head = await client.head();
    const pass: Pass = {};
    for (const w of open) {
      if (w.state === 'APPROVED') {
        const coin = coins.get(w.asset);
        if (!coin) {
          log.error({ withdrawalId: w.withdrawalId, asset: w.asset }, 'no chain coin for an approved withdrawal');
          continue;
        }
        await sign(w, coin, pass);
      } else if ((w.state === 'BROADCASTING' || w.state === 'CONFIRMING') && w.txHash !== null) {
        await follow(w, head.number);
      }
    }
  }

  const broadcaster: WithdrawalBroadcaster = createPollingJob({ pass: once, pollMs, log, what: 'withdrawal broadcaster pass', context: { chain } });
  return broadcaster;
}
