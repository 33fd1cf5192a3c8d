/**
 * The deposit watcher: follows the chain's new blocks and credits deposits to our users' addresses.
 *
 * Every `pollMs` (1 s) one tick:
 * 1. Checks the cursor (the newest block in chain_blocks) is still on the chain. If the chain's block at that height
 *    has another hash (or the chain is shorter), a reorg: walks back through chain_blocks to the newest block the chain
 *    still has (the common ancestor), marks the deposits of the orphaned blocks ORPHANED (a deposit not credited is
 *    never credited then), forgets those blocks and rescans from the ancestor. An orphaned block that held a CREDITED
 *    deposit means a reorg deeper than the confirmations: a chain_alerts row and an error in the log (the credit stays;
 *    an operator decides). No common ancestor in the window (a dev chain restarted from genesis): the cursor is reset
 *    and the chain rescanned from CHAIN_START_BLOCK, with a log line and an alert.
 * 2. Scans the next blocks up to the head (at most `maxBlocksPerTick`), each linked to the previous by its parent hash:
 *    native transfers to a deposit address (log index -1) and the tokens' Transfer logs to one, recorded CONFIRMING with
 *    their block (BELOW_MINIMUM when under the coin's minimum deposit, including dust below one engine unit); then the
 *    block is saved as the new cursor. A crash between the two rescans the block (recording is idempotent).
 * 3. Credits each CONFIRMING deposit whose block is `confirmations` deep under the newest scanned block:
 *    creditDeposit to the engine (idempotent for ever by chain, tx hash and log index, so a rescan after a lost
 *    database or a restart never credits twice), then the row is marked CREDITED (the projector also writes it).
 *
 * Limits: ETH sent by a contract (internal transfers) is not seen, only top-level transactions.
 */
import { createPollingJob, type PollingJob } from './polling-job';
import type { FastifyBaseLogger } from 'fastify';
import type { ChainClient, TokenTransfer } from '@exchange/chain';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import {
  blockAt,
  confirmingDeposits,
  dropBlocksFrom,
  insertAlert,
  lastBlock,
  markDepositCredited,
  orphanDepositsFrom,
  recordSeenDeposit,
  saveBlock,
  type ChainBlockRow,
  type SeenDeposit,
} from './chain.repository';
import type { ChainCoin, DepositAddressBook } from './chain.service';
import { chainToEngine } from './chains';

/** What the watcher needs. */
export interface ChainWatcherDeps {
  db: Db;
  host: Pick<EnginePort, 'submit'>;
  client: Pick<ChainClient, 'head' | 'block' | 'tokenTransfers'>;
  log: FastifyBaseLogger;
  /** network code, "ETH" */
  chain: string;
  coins: () => readonly ChainCoin[];
  addresses: Pick<DepositAddressBook, 'userOf' | 'ready'>;
  /** blocks a deposit waits (its own block counts as 1) */
  confirmations: number;
  /** where to start without a cursor (CHAIN_START_BLOCK) */
  startBlock: number;
  pollMs?: number;
  maxBlocksPerTick?: number;
  now?: () => number;
}

/** A running watcher. */
export interface ChainWatcher extends PollingJob {
  /** Deposit credited: (txHash, logIndex, ms from the watcher seeing the block to the credit journaled). For the bench. */
  onCredited?: (d: { txHash: string; logIndex: number; creditedAt: number }) => void;
}

/** Creates the watcher (not started). */
export function createChainWatcher(deps: ChainWatcherDeps): ChainWatcher {
  const { db, host, client, log, chain } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const maxBlocks = deps.maxBlocksPerTick ?? 200;
  const now = deps.now ?? Date.now;
  /** Blocks kept in chain_blocks behind the cursor: how deep a reorg can be followed. */
  const keep = Math.max(128, deps.confirmations * 4);

  /** The cursor after reconciling it with the chain: itself, the common ancestor after a reorg, or null (reset). */
  async function reconcile(cursor: ChainBlockRow, headNumber: number): Promise<ChainBlockRow | null> {
    if (headNumber >= cursor.number) {
      const b = await client.block(cursor.number);
      if (b && b.hash === cursor.hash) return cursor;
    }
    let ancestor: ChainBlockRow | null = null;
    for (let n = Math.min(cursor.number, headNumber); n >= 0; n--) {
      const stored = await blockAt(db, chain, n);
      if (!stored) break;
      const b = await client.block(n);
      if (b && b.hash === stored.hash) {
        ancestor = stored;
        break;
      }
    }
    const at = new Date(now());
    if (ancestor === null) {
      // No block of ours is on this chain any more: a dev chain restarted from genesis (or a reorg deeper than the
      // window). Everything not credited is orphaned; the chain is rescanned from the start block.
      log.warn(
        { chain, cursor: cursor.number, head: headNumber },
        'chain watcher: no common ancestor with the chain (node restarted?); cursor reset, rescanning',
      );
      await orphanDepositsFrom(db, chain, 0, at);
      await dropBlocksFrom(db, chain, 0);
      await insertAlert(
        db,
        {
          chain,
          kind: 'cursor_reset',
          message: `no common ancestor with the chain below block ${cursor.number} (head ${headNumber}); rescanned from block ${deps.startBlock}`,
        },
        at,
      );
      return null;
    }
    const from = ancestor.number + 1;
    const credited = await orphanDepositsFrom(db, chain, from, at);
    await dropBlocksFrom(db, chain, from);
    log.warn({ chain, from, to: cursor.number, ancestor: ancestor.number }, 'chain watcher: reorg, blocks orphaned');
    for (const d of credited) {
      const message = `reorg deeper than ${deps.confirmations} confirmations: credited deposit ${d.txHash} (log ${d.logIndex}, block ${d.blockNumber}, user ${d.userId}, ${d.coin} ${d.amount} units) is no longer on the chain`;
      log.error({ chain, txHash: d.txHash, logIndex: d.logIndex, userId: String(d.userId) }, message);
      await insertAlert(db, { chain, kind: 'deep_reorg', message }, at);
    }
    return ancestor;
  }

  /** Records a transfer of `amount` chain units of `coin` to `to`, if `to` is ours. */
  async function record(
    coin: ChainCoin,
    t: { txHash: string; logIndex: number; blockNumber: number; blockHash: string; from: string; to: string; value: bigint },
  ): Promise<void> {
    const userId = deps.addresses.userOf(t.to);
    if (userId === undefined || t.value <= 0n) return;
    const { units } = chainToEngine(t.value, coin.chainDecimals);
    const d: SeenDeposit = {
      userId: BigInt(userId),
      coin: coin.coin,
      chain,
      txHash: t.txHash.toLowerCase(),
      logIndex: t.logIndex,
      blockNumber: t.blockNumber,
      blockHash: t.blockHash,
      fromAddress: t.from,
      toAddress: t.to,
      amount: units,
      chainAmount: t.value,
      status: units > 0n && units >= coin.minDeposit ? 'CONFIRMING' : 'BELOW_MINIMUM',
    };
    await recordSeenDeposit(db, d, new Date(now()));
    log.info({ chain, userId, coin: coin.coin, txHash: d.txHash, logIndex: d.logIndex, block: d.blockNumber, status: d.status }, 'deposit seen');
  }

  /** Scans blocks after `cursor` up to `headNumber`; answers the newest block scanned (the cursor if none). */
  async function scan(cursor: ChainBlockRow | null, headNumber: number): Promise<number> {
    const first = cursor ? cursor.number + 1 : deps.startBlock;
    const last = Math.min(headNumber, first + maxBlocks - 1);
    let scanned = cursor ? cursor.number : first - 1;
    if (first > last) return scanned;
    const coins = deps.coins();
    const logs = new Map<number, Array<{ coin: ChainCoin; t: TokenTransfer }>>();
    for (const coin of coins) {
      if (coin.token === null) continue;
      for (const t of await client.tokenTransfers(coin.token, first, last)) {
        if (deps.addresses.userOf(t.to) === undefined) continue;
        const list = logs.get(t.blockNumber) ?? [];
        list.push({ coin, t });
        logs.set(t.blockNumber, list);
      }
    }
    const native = coins.find((c) => c.token === null);
    let prevHash = cursor?.hash ?? null;
    for (let n = first; n <= last; n++) {
      const b = await client.block(n);
      if (!b) break;
      // A block not linked to the previous one, or logs of another block at this height: the chain moved under us.
      // Stop here; the next tick reconciles the cursor.
      if (prevHash !== null && b.parentHash !== prevHash) break;
      const blockLogs = logs.get(n) ?? [];
      if (blockLogs.some((l) => l.t.blockHash !== b.hash)) break;
      if (native) {
        for (const tx of b.transactions) {
          if (tx.to === null) continue;
          await record(native, { txHash: tx.hash, logIndex: -1, blockNumber: n, blockHash: b.hash, from: tx.from, to: tx.to, value: tx.value });
        }
      }
      for (const { coin, t } of blockLogs) await record(coin, { ...t, blockNumber: n, blockHash: b.hash });
      await saveBlock(db, { chain, number: n, hash: b.hash, parentHash: b.parentHash }, n - keep);
      prevHash = b.hash;
      scanned = n;
    }
    return scanned;
  }

  /** Credits the CONFIRMING deposits `confirmations` deep under block `tip`. */
  async function credit(tip: number): Promise<void> {
    for (const d of await confirmingDeposits(db, chain)) {
      if (tip - d.blockNumber + 1 < deps.confirmations) continue;
      const r = await host.submit({
        type: 'creditDeposit',
        userId: String(d.userId),
        asset: d.coin,
        amount: BigInt(d.amount),
        chain,
        txHash: d.txHash,
        logIndex: d.logIndex,
        address: d.toAddress,
        blockNumber: d.blockNumber,
      });
      if (r.code !== 'ok') {
        log.error({ chain, txHash: d.txHash, logIndex: d.logIndex, code: r.code }, 'creditDeposit refused');
        continue;
      }
      await markDepositCredited(db, d.id, new Date(now()));
      watcher.onCredited?.({ txHash: d.txHash, logIndex: d.logIndex, creditedAt: now() });
      log.info({ chain, userId: String(d.userId), coin: d.coin, txHash: d.txHash, duplicate: r.duplicate === true }, 'deposit credited');
    }
  }

  async function once(): Promise<void> {
    // Every registered user's address must be known before a block is passed over.
    await deps.addresses.ready();
    const head = await client.head();
    let cursor = await lastBlock(db, chain);
    if (cursor) cursor = await reconcile(cursor, head.number);
    const tip = await scan(cursor, head.number);
    await credit(tip);
  }

  const watcher: ChainWatcher = createPollingJob({ pass: once, pollMs, log, what: 'chain watcher tick', context: { chain } });
  return watcher;
}
