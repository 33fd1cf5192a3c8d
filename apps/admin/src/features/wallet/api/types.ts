/**
 * Wire shapes of the console's wallet pages, from packages/api wallet.ts (the TypeBox schemas; the ones without an
 * exported type are restated here field for field). Amounts are decimal strings in coin units, times Unix ms.
 */
import type { AdminWithdrawal, DepositRecord, DepositStatus, WithdrawStatus } from '@exchange/api';

export type { AdminWithdrawal, DepositStatus, WithdrawStatus };
/** A page of the withdrawal queue (AdminWithdrawalsPage). */
export interface AdminWithdrawalsPage {
  total: number;
  list: AdminWithdrawal[];
}
/** A deposit of the monitor (AdminDeposit): the record with the user's id and account. */
export type AdminDeposit = DepositRecord & { userId: string; account: string };
/** A page of the deposit monitor (AdminDepositsPage). */
export interface AdminDepositsPage {
  total: number;
  list: AdminDeposit[];
}
/** A chain alert (ChainAlert). */
export interface ChainAlert {
  id: string;
  chain: string;
  kind: string;
  message: string;
  createdAt: number;
}
/** One row of the hot-wallet view (HotWalletRow). */
export interface HotWalletRow {
  chain: string;
  coin: string;
  hotWalletAddress: string;
  hotWallet: string;
  depositAddresses: string;
  liabilities: string;
}
/** Answer of the console's reservesSnapshot (AdminReservesResult). */
export interface AdminReservesResult {
  snapshotId: string;
  rootHash: string;
  leafCount: number;
}
