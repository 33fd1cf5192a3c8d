/**
 * The wallet's projection (platform/engine-host/projection.ts):
 * - a credited chain deposit (depositCredited): the watcher's wallet_deposits row becomes CREDITED with its journal
 *   position, matched by (chain, txHash, logIndex); a database rebuilt from the journal gets the row from the event
 *   alone (no block hash or sender);
 * - a withdrawal's state (withdrawalUpdated): upserted by id, never an older state over a newer one; an operator's
 *   approval or rejection carries its audit record, written in the same batch;
 * - a transfer between two of a user's accounts (transferred): once per journal position.
 */
import type { DepositCredit, WithdrawalView } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { walletDeposits } from './chain.tables';
import { walletTransfers, walletWithdrawals } from './wallet.tables';
import { AUDIT_TABLE, auditRow, isProjectedUser, type DomainProjection } from '../../platform/engine-host/projection';

export const DEPOSITS_TABLE = projectedTable(walletDeposits, {
  key: ['chain', 'txHash', 'logIndex'],
  mode: 'upsert',
  set: ['status', 'creditedSeq', 'updatedAt'],
  fill: ['creditedAt'],
});
export const WITHDRAWALS_TABLE = projectedTable(walletWithdrawals, {
  key: ['id'],
  mode: 'upsert',
  set: ['status', 'approvals', 'fromAddress', 'nonce', 'txHash', 'rawTx', 'blockNumber', 'reason', 'reasonZh', 'reasonEn', 'rejectedBy', 'updatedTs', 'seq'],
  newer: { field: 'seq' },
});
export const TRANSFERS_TABLE = projectedTable(walletTransfers, { key: ['seq'], mode: 'once' });

/** The wallet_deposits row of a depositCredited event at journal position `seq` (status CREDITED). */
export function depositRow(d: DepositCredit, seq: number, ts: number): typeof walletDeposits.$inferInsert {
  const at = new Date(ts);
  return {
    userId: BigInt(d.userId),
    coin: d.asset,
    chain: d.chain,
    txHash: d.txHash,
    logIndex: d.logIndex,
    blockNumber: d.blockNumber,
    blockHash: '',
    fromAddress: '',
    toAddress: d.address,
    amount: d.amount.toString(),
    chainAmount: '',
    status: 'CREDITED',
    creditedSeq: seq,
    createdAt: at,
    creditedAt: at,
    updatedAt: at,
  };
}

/**
 * The wallet_withdrawals row of a withdrawalUpdated event at journal position `seq`. The reject reason in both
 * languages comes from the command's audit record (`reasonZh`, `reasonEn`: the console's reject), else both are ''.
 */
export function withdrawalRow(w: WithdrawalView, seq: number, audit: Readonly<Record<string, string>> | undefined): typeof walletWithdrawals.$inferInsert {
  return {
    id: BigInt(w.withdrawalId),
    userId: BigInt(w.userId),
    clientId: w.clientId,
    coin: w.asset,
    chain: w.chain,
    address: w.address,
    amount: w.amount.toString(),
    fee: w.fee.toString(),
    status: w.state,
    approvalsRequired: w.approvalsRequired,
    approvals: [...w.approvals],
    fromAddress: w.from,
    nonce: w.nonce,
    txHash: w.txHash,
    rawTx: w.rawTx,
    blockNumber: w.blockNumber,
    reason: w.reason ?? '',
    reasonZh: audit?.reasonZh ?? '',
    reasonEn: audit?.reasonEn ?? '',
    rejectedBy: w.rejectedBy,
    createdTs: w.createdTs,
    updatedTs: w.updatedTs,
    seq,
  };
}

export const walletProjection: DomainProjection = {
  tables: [DEPOSITS_TABLE, WITHDRAWALS_TABLE, TRANSFERS_TABLE, AUDIT_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) {
      if (ev.type === 'withdrawalUpdated' && isProjectedUser(ev.withdrawal.userId)) {
        out.put(WITHDRAWALS_TABLE, withdrawalRow(ev.withdrawal, seq, ev.audit));
        if (ev.audit !== undefined) out.put(AUDIT_TABLE, auditRow(ev.withdrawal.userId, ev.audit, seq, ev.ts));
      } else if (ev.type === 'transferred' && isProjectedUser(ev.userId)) {
        out.put(TRANSFERS_TABLE, {
          seq,
          userId: BigInt(ev.userId),
          coin: ev.asset,
          fromAccount: ev.from,
          toAccount: ev.to,
          amount: ev.amount.toString(),
          clientId: ev.clientId,
          ts: ev.ts,
        });
      } else if (ev.type === 'depositCredited') out.put(DEPOSITS_TABLE, depositRow(ev.deposit, seq, ev.ts));
    }
  },
};
