import type { AccountKind, Asset, Balance, Command, CommandResult, DepthLevel, MarketConfig, OrderListWithOrders, OrderView, WithdrawalView } from './types';
import type { UserRecord, UserRow } from './users';
import type { PerpReads } from './perp/types';
import type { OtcReads } from './otc/types';
import type { ActivityReads } from './activity/types';
import type { RebateReads } from './rebate/types';
import type { ConvertPreview } from './spot/convert';

/**
 * The reads of the machines the engine is given by its host (machine.ts), declared by each machine's file into this
 * interface by declaration merging (`interface MachineReads extends TipsReads {}`): they join `EngineApi` and `Engine`,
 * which answers them from the machine's state. Empty in the core itself.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface MachineReads {}

/**
 * The engine's public surface (implemented by `Engine` in engine.ts).
 * `execute` is the only way to change state; everything else is a read.
 */
export interface EngineApi extends PerpReads, OtcReads, ActivityReads, RebateReads, MachineReads {
  /** What a convert would do now (spot/convert.ts), or undefined for an unknown market; nothing changes. */
  convertPreview(symbol: string, side: 'BUY' | 'SELL', userId: string, amount: bigint): ConvertPreview | undefined;
  /** Apply one command; never throws for business rejections (they are `code` values). */
  execute(cmd: Command): CommandResult;
  asset(code: string): Asset | undefined;
  assets(): Asset[];
  market(symbol: string): MarketConfig | undefined;
  markets(): MarketConfig[];
  /** Balance of one account (zeroes if it never existed). */
  balance(owner: string, account: AccountKind | 'SYSTEM', asset: string): Balance;
  /** All non-zero balances of an owner: account -> asset -> balance. */
  balancesOf(owner: string): Map<AccountKind | 'SYSTEM', Map<string, Balance>>;
  order(orderId: string): OrderView | undefined;
  /** Open (NEW or PARTIALLY_FILLED) orders of a user, oldest first, optionally for one market. */
  openOrders(userId: string, symbol?: string): OrderView[];
  /**
   * A retained OCO order list of `userId` (docs/conditional-orders.md, OCO) by orderListId, or by listClientOrderId
   * when orderListId is undefined, with its retained legs (above first); undefined when unknown, forgotten by the
   * closed-order retention, or another user's.
   */
  orderList(userId: string, orderListId: string | undefined, listClientOrderId?: string): OrderListWithOrders | undefined;
  /** The user's retained OCO lists, lowest orderListId first; only those still EXECUTING when `executingOnly`. */
  orderLists(userId: string, executingOnly: boolean): OrderListWithOrders[];
  /** Aggregated book levels, best first, at most `levels` per side. */
  depth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] };
  /** Price of the last trade in the market (price units), or null. */
  lastPrice(symbol: string): bigint | null;
  /** A withdrawal not yet final, or undefined (unknown, or final: its history is the database's). */
  withdrawal(withdrawalId: string): WithdrawalView | undefined;
  /** Every withdrawal not yet final (REVIEW ... CONFIRMING), oldest first. */
  openWithdrawals(): WithdrawalView[];
  /** True when the chain deposit (chain, txHash, logIndex; -1 for a native transfer) was credited. */
  depositCredited(chain: string, txHash: string, logIndex: number): boolean;
  /** The wallet's recorded public identity (walletIdentity: SHA-256 hex of the deposit xpub), or null before it. */
  walletIdentity(): string | null;
  /** Per asset: sum over all accounts (must be 0n for every asset). */
  assetTotals(): Map<string, bigint>;
  /** The id of the journal the state was built from (its genesis command), or null before genesis. */
  journalId(): string | null;
  /** A registered user, or undefined (users.ts). */
  user(userId: string): UserRecord | undefined;
  /** The id of the user owning a key (account or unique key), or undefined. */
  userByKey(key: string): string | undefined;
  /** Every registered user in id order: [userId, account, uniqueKeys, profile]. */
  userRows(): UserRow[];
  /** JSON-serializable copy of the whole state (bigints as decimal strings). */
  snapshot(): EngineSnapshot;
  /** Hex digest of the canonical state; equal states give equal hashes. */
  stateHash(): string;
}

/** Opaque JSON-serializable state; restore with `Engine.restore(snapshot)`. */
export interface EngineSnapshot {
  version: 1;
  [key: string]: unknown;
}
