/**
 * The exchange engine: a deterministic state machine, commands in, events out (ARCHITECTURE.md section 2).
 * No I/O, no clock (time comes with each command), no randomness. Balances live in a double-entry
 * ledger (ledger/ledger.ts).
 *
 * The engine is a router over the domains' state machines: each machine's file declares the command types it
 * handles (`SPOT_COMMANDS`, `WALLET_COMMANDS` ...) and `Engine.machines` lists the machines once; `execute` looks the
 * command's type up in the table built from that list and hands the command to its machine, lending it the ledger,
 * the command's event list and what the engine knows of users, sequences and idempotency keys (each machine's host
 * interface: `SpotHost`, `WalletHost`, `PerpHost` ...). A new domain is one entry in that list plus its command union
 * in types.ts. What crosses domains stays here, beside the table: the genesis command, the order and trade sequences
 * (spot and the perpetuals share one id space each), the idempotency keys, the invitation rebates' accrual from the
 * perpetuals' fills, the activities' progress from every accepted command, and the balance events.
 *
 * Per command, events come in this order: the command's own events (order accepted, trades, order
 * updates, depth changes ...), then one `balanceChanged` per account changed by the command, in
 * the order the accounts were first touched. A rejected command returns its code and no events
 * and changes nothing. Idempotency keys ((userId, clientOrderId) of accepted orders, (userId, ref)
 * of deposits, (userId, clientId) of transfers) are recorded only when the command succeeds, so a
 * rejected command may be retried with the same key; a repeated key returns code 'ok' (the first
 * result's code), no events, and for orders `duplicateOfOrderId` plus the order's current view
 * while the order is retained. Keys live for `idempotencyWindowMs` of command time (idempotency.ts),
 * independent of `closedOrderRetention`; a client order id is also recognised as long as its order
 * is retained (open orders always are), even after its key expired.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { EngineApi, EngineSnapshot, MachineReads } from './engine-api';
import {
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  KEY_DEPOSIT,
  KEY_ORDER,
  KEY_OTC_AD,
  KEY_OTC_ORDER,
  KEY_PERP_ORDER,
  KEY_TRANSFER,
  KeyWindow,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  type KeyKind,
  type KeyRow,
} from './idempotency';
import { WALLET_COMMANDS, WalletEngine, type WalletHost } from './wallet/wallet-engine';
import { isKey, isNonNegInt } from './checks';
import { MachineMissingError, type EngineMachine, type MachineState } from './machine';
import type { DailyRow, WithdrawalRow } from './wallet/withdrawals';
import { type Account, Ledger, type LedgerKind } from './ledger/ledger';
import { OTC_COMMANDS, OtcState, type OtcHost, type OtcSnapshot } from './otc/otc-engine';
import type { ConvertPreview } from './spot/convert';
import type { OtcAdView, OtcConfig, OtcMerchantView, OtcOrderView } from './otc/types';
import { ACTIVITY_COMMANDS, ActivityState, type ActivityHost, type ActivitySnapshot } from './activity/activity-engine';
import type { ActivityEntry, ActivityView } from './activity/types';
import { PERP_COMMANDS, PerpState, type PerpHost, type PerpSnapshot } from './perp/perp-engine';
import { REBATE_COMMANDS, RebateState, type RebateSnapshot } from './rebate/rebate-state';
import { REBATE_ASSET } from './rebate/types';
import type { PerpAccountView, PerpMarkState, PerpMarketConfig, PerpOrderView, PerpSettings, PositionView } from './perp/types';
import type { BookKind, OrderBook } from './spot/book';
import { DEFAULT_CLOSED_ORDER_RETENTION, SPOT_COMMANDS, SpotEngine, type MarketRow, type OrderRow, type SpotHost } from './spot/spot-engine';
import { USER_COMMANDS, UserRegistry, type UserRecord, type UserRow } from './users';
import {
  type AccountKind,
  type Asset,
  type Balance,
  type Command,
  type CommandResult,
  type CommandType,
  type DepthLevel,
  type EngineEvent,
  type MachineCommands,
  type MarketConfig,
  type OrderListWithOrders,
  type OrderView,
  type RejectCode,
  type WithdrawalView,
} from './types';

export { parseCommand, serializeCommand } from './codec';
export { DEFAULT_CLOSED_ORDER_RETENTION, MAX_ASSET_SCALE, parseOrderId } from './spot/spot-engine';

/** Engine construction options. */
export interface EngineOptions {
  /**
   * The machines beyond the core's own, given by the host (machine.ts): each runs its commands and answers its reads
   * here, and its rows join the snapshot under its name. Every process applying one journal must be given the same
   * machines. A restore is given them again (they are code, not state).
   */
  machines?: readonly EngineMachine[];
  /** Order book implementation: 'fast' (default) or the 'naive' reference used by property tests. */
  book?: BookKind;
  /**
   * How many of the most recently ended (FILLED, CANCELED, EXPIRED) orders the engine keeps for
   * `order()` and for the order view of an idempotent retry (open orders are always kept; retries
   * themselves are recognised by the idempotency window, not by this). Older ended orders are
   * forgotten, which keeps memory, snapshots and GC bounded; history belongs to the server's
   * database. Part of the state (kept in snapshots). Default 1,000 (each retained order survives
   * into V8's old generation: 10,000 cost about a fifth of the throughput on the benchmark flow).
   */
  closedOrderRetention?: number;
  /**
   * How long (command time `ts`, ms) idempotency keys are kept: a retried placeOrder (same userId and
   * clientOrderId), deposit (same userId and ref) or transfer (same userId and clientId) with a ts
   * below the first command's ts + this window returns the first result, even when the order was
   * no longer retained. Part of the state (kept in snapshots). Default 24 h (86,400,000).
   */
  idempotencyWindowMs?: number;
}

export { DEFAULT_IDEMPOTENCY_WINDOW_MS, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency';

/**
 * Every rejection the router itself may answer (an unknown command type, a genesis that is not the journal's first
 * command or has no valid journal id): a closed list, the compiler refuses any other code in this file.
 */
export const ENGINE_REJECT_CODES = ['invalid_config', 'invalid_order'] as const satisfies readonly RejectCode[];
/** A rejection of the router itself (ENGINE_REJECT_CODES). */
export type EngineRejectCode = (typeof ENGINE_REJECT_CODES)[number];

function reject(code: EngineRejectCode): CommandResult {
  return { code, events: [] };
}

/** The commands the engine handles itself (the journal's genesis). */
const ENGINE_COMMANDS = ['genesis'] as const satisfies readonly CommandType[];

/**
 * One entry of the router's list: a machine's command types (the list its file declares) and how the engine runs
 * one of them. `run` is only ever handed a command of those types (the table is keyed by them).
 */
interface Route<T extends CommandType> {
  readonly commands: readonly T[];
  readonly run: (cmd: Command) => CommandResult;
}

/** A route, typed: `run` receives the commands of `commands` only (the compiler checks the machine takes them). */
function route<T extends CommandType>(commands: readonly T[], run: (cmd: Extract<Command, { type: T }>) => CommandResult): Route<T> {
  return { commands, run: run as (cmd: Command) => CommandResult };
}

/** The engine (see the file comment). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the given machines' reads (MachineReads), defined on the instance
export class Engine implements EngineApi, SpotHost, PerpHost, OtcHost, ActivityHost, WalletHost {
  readonly ledger = new Ledger();
  events: EngineEvent[] = [];
  private readonly bookKind: BookKind;
  /** Idempotency keys of orders, deposits, transfers, withdrawals and OTC for the window of command time. */
  private readonly keys: KeyWindow;
  /** The last order sequence number given out: spot and perpetual orders share one id space ("1", "2" ...). */
  private orderSeq = 0;
  /** The last trade id given out: spot and perpetual trades share one id space. */
  private tradeSeq = 0;
  /** Spot trading: assets, markets, orders, convert (spot/spot-engine.ts). */
  private readonly spot: SpotEngine;
  /** Registered users (ids that key balances come from here: users.ts). */
  private readonly users = new UserRegistry();
  /** Deposits, transfers and withdrawals (wallet/wallet-engine.ts). */
  private readonly wallet = new WalletEngine();
  /** The id of the journal this state was built from (its genesis command), or null before genesis. */
  private journal: string | null = null;

  /** The perpetual contracts (perp/perp-engine.ts). */
  private perp: PerpState;
  /** Peer-to-peer fiat trading (otc/otc-engine.ts). */
  private otc: OtcState;
  /** Activities: campaigns, participants, progress counted from fills and deposits, payouts (activity/activity-engine.ts). */
  private campaigns: ActivityState;
  /** Invitation rebates: the invitees' contract fees per day, the last settled day (rebate/rebate-state.ts). */
  private rebate = new RebateState();
  /** Command type -> its machine's `run` (built from `machines()`; see the file comment). */
  private readonly routes = new Map<string, (cmd: Command) => CommandResult>();
  /** The machines given by the host (EngineOptions.machines) and their states, by name, in name order. */
  private readonly given = new Map<string, { machine: EngineMachine; state: MachineState }>();

  constructor(opts?: EngineOptions) {
    this.bookKind = opts?.book ?? 'fast';
    this.spot = new SpotEngine(this, this.bookKind, opts?.closedOrderRetention ?? DEFAULT_CLOSED_ORDER_RETENTION);
    const w = opts?.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    if (!isNonNegInt(w, 2 ** 53 - 1)) throw new RangeError('idempotencyWindowMs must be a non-negative integer');
    this.keys = new KeyWindow(w);
    this.perp = new PerpState(this.bookKind, this.ledger);
    this.otc = new OtcState(this.ledger);
    this.campaigns = new ActivityState(this.ledger);
    for (const m of this.machines()) {
      for (const type of m.commands) {
        if (this.routes.has(type)) throw new Error(`engine: command ${type} is routed to two machines`);
        this.routes.set(type, m.run);
      }
    }
    for (const machine of [...(opts?.machines ?? [])].sort((a, b) => cmpStr(a.name, b.name))) this.give(machine);
  }

  /**
   * Routes a given machine's commands to its state and answers its reads (machine.ts). Throws when its name is one of
   * the snapshot's fields or another machine's, a command type is already routed, or a read is a name the engine has.
   */
  private give(machine: EngineMachine): void {
    const name = machine.name;
    if (!/^[a-z][A-Za-z0-9]*$/.test(name) || SNAPSHOT_FIELDS.has(name) || this.given.has(name)) {
      throw new Error(`engine: a machine may not be named ${JSON.stringify(name)}`);
    }
    const entry = { machine, state: machine.create(this.ledger) };
    this.given.set(name, entry);
    for (const type of machine.commands) {
      if (this.routes.has(type)) throw new Error(`engine: command ${type} is routed to two machines`);
      this.routes.set(type, (cmd) => entry.state.execute(cmd, this));
    }
    for (const read of machine.reads) {
      if (read in this) throw new Error(`engine: the read ${read} of machine ${name} is a name the engine has`);
      // Read at call time: a restore replaces the state.
      Object.defineProperty(this, read, {
        value: (...args: unknown[]) => (entry.state as unknown as Record<string, (...a: unknown[]) => unknown>)[read]!(...args),
      });
    }
  }

  /**
   * The domains' state machines, the router's one list: each entry is a machine's command types and how it runs one
   * (a machine replaced by restore is read at call time). The compiler checks below that every command type of
   * types.ts is in some entry; the constructor, that none is in two.
   */
  private machines() {
    return [
      route(ENGINE_COMMANDS, (cmd) => this.genesis(cmd)),
      route(USER_COMMANDS, (cmd) => this.users.execute(cmd, this.events)),
      route(WALLET_COMMANDS, (cmd) => this.wallet.execute(cmd, this)),
      route(SPOT_COMMANDS, (cmd) => this.spot.execute(cmd)),
      route(PERP_COMMANDS, (cmd) => {
        const r = this.perp.execute(cmd, this);
        // Invitation rebates: the USDT contract fees of the command's fills accrue to the invitees' days.
        if (r.events.length > 0) this.accrueRebates(r.events);
        return r;
      }),
      route(REBATE_COMMANDS, (cmd) => this.rebate.execute(cmd, this)),
      route(OTC_COMMANDS, (cmd) => this.otc.execute(cmd, this)),
      route(ACTIVITY_COMMANDS, (cmd) => this.campaigns.execute(cmd, this)),
    ] as const;
  }

  // ---- SpotHost (the sequences are also the perpetuals') --------------------------------------

  /** @internal */
  allocOrderSeq(): number {
    return ++this.orderSeq;
  }
  /** @internal */
  allocTradeId(): string {
    return `${++this.tradeSeq}`;
  }
  /** @internal the order seq of a live placeOrder client order id key */
  orderKeyLookup(userId: string, clientOrderId: string, ts: number): number | undefined {
    return this.keys.lookup(KEY_ORDER, userId, clientOrderId, ts)?.seq;
  }
  /** @internal */
  orderKeyAdd(userId: string, clientOrderId: string, ts: number, seq: number): void {
    this.keys.add(KEY_ORDER, userId, clientOrderId, ts, seq);
  }

  // ---- commands -------------------------------------------------------------------------------

  /** Apply one command; business rejections are result codes, never exceptions. */
  execute(cmd: Command): CommandResult {
    this.events = [];
    this.ledger.beginCommand();
    const run = this.routes.get(cmd.type);
    const r = run === undefined ? reject('invalid_order') : run(cmd);

    // Only a command that changed the state (it has events) ages out keys: rejections and retries change nothing.
    if (r.events.length > 0) this.keys.evict(cmd.ts);
    // Activities count their progress from the fills and deposits of every accepted command (activity/types.ts).
    if (r.code === 'ok' && r.events.length > 0) this.campaigns.observe(r.events, this);
    const n = this.ledger.touchedCount;
    if (n > 0) {
      const touched = this.ledger.touched;
      const ts = cmd.ts;
      for (let i = 0; i < n; i++) {
        const a = touched[i] as Account;
        r.events.push({ type: 'balanceChanged', ts, owner: a.owner, account: a.kind, asset: a.asset, available: a.available, frozen: a.frozen });
      }
    }
    return r;
  }

  /** Accrues the USDT contract fees of perpTrade events paid by invited users (rules in rebate/types.ts). */
  private accrueRebates(events: EngineEvent[]): void {
    for (const ev of events) {
      if (ev.type !== 'perpTrade' || (ev.makerFee === 0n && ev.takerFee === 0n)) continue;
      if (this.perp.settleAssetOf(ev.symbol) !== REBATE_ASSET) continue;
      this.accrueRebate(ev.ts, ev.makerUserId, ev.makerFee);
      this.accrueRebate(ev.ts, ev.takerUserId, ev.takerFee);
    }
  }
  private accrueRebate(ts: number, userId: string, fee: bigint): void {
    if (fee <= 0n) return;
    const inviter = this.users.get(userId)?.profile.invitedBy;
    if (inviter === undefined || inviter === '' || inviter === userId || this.users.get(inviter) === undefined) return;
    this.rebate.accrue(ts, userId, inviter, fee);
  }

  private genesis(cmd: Extract<Command, { type: 'genesis' }>): CommandResult {
    if (this.journal !== null || !isKey(cmd.journalId, MAX_IDEMPOTENCY_KEY_LENGTH)) return reject('invalid_config');
    this.journal = cmd.journalId;
    this.events.push({ type: 'genesis', ts: cmd.ts, journalId: cmd.journalId });
    return { code: 'ok', events: this.events };
  }

  /**
   * True when the user's profile field `frozen` is '1' (set by the operator console): the one profile field the
   * engine reads (users.ts). A frozen user's placeOrder and transfer are refused (account_frozen); cancels are not.
   * @internal
   */
  isFrozen(userId: string): boolean {
    return this.users.get(userId)?.profile.frozen === '1';
  }

  // ---- WalletHost -----------------------------------------------------------------------------

  /** @internal a field of a registered user's profile, or undefined */
  profileField(userId: string, field: string): string | undefined {
    return this.users.get(userId)?.profile[field];
  }
  /** @internal the seq of a live deposit, transfer or withdrawal idempotency key */
  walletKeyLookup(kind: KeyKind, userId: string, key: string, ts: number): number | undefined {
    return this.keys.lookup(kind, userId, key, ts)?.seq;
  }
  /** @internal */
  walletKeyAdd(kind: KeyKind, userId: string, key: string, ts: number, seq: number): void {
    this.keys.add(kind, userId, key, ts, seq);
  }
  /** @internal what the user may take out of the contract account (perpetuals' max withdraw), or undefined */
  contractSpendable(userId: string, asset: string): bigint | undefined {
    return this.perp.settlesIn(asset) ? this.perp.spendable(userId, asset) : undefined;
  }

  // ---- PerpHost -------------------------------------------------------------------------------

  /** @internal the scale of an asset, or undefined when it is not listed */
  hasAsset(code: string): number | undefined {
    return this.spot.assetScale(code);
  }
  /** @internal the order seq of a live perpetual client order id key */
  perpKeyLookup(userId: string, clientOrderId: string, ts: number): number | undefined {
    return this.keys.lookup(KEY_PERP_ORDER, userId, clientOrderId, ts)?.seq;
  }
  /** @internal */
  perpKeyAdd(userId: string, clientOrderId: string, ts: number, seq: number): void {
    this.keys.add(KEY_PERP_ORDER, userId, clientOrderId, ts, seq);
  }

  // ---- OtcHost --------------------------------------------------------------------------------

  /** @internal */
  isUser(userId: string): boolean {
    return this.users.get(userId) !== undefined;
  }
  /** @internal the id number of a live OTC ad or order idempotency key */
  otcKeyLookup(kind: 'ad' | 'order', userId: string, clientId: string, ts: number): number | undefined {
    return this.keys.lookup(kind === 'ad' ? KEY_OTC_AD : KEY_OTC_ORDER, userId, clientId, ts)?.seq;
  }
  /** @internal */
  otcKeyAdd(kind: 'ad' | 'order', userId: string, clientId: string, ts: number, seq: number): void {
    this.keys.add(kind === 'ad' ? KEY_OTC_AD : KEY_OTC_ORDER, userId, clientId, ts, seq);
  }

  // ---- ActivityHost ---------------------------------------------------------------------------

  /** @internal the quote asset of a spot market */
  spotQuote(symbol: string): string | undefined {
    return this.spot.quoteOf(symbol);
  }
  /** @internal the settle asset of a perpetual market */
  perpQuote(symbol: string): string | undefined {
    return this.perp.perpMarket(symbol)?.quote;
  }

  // ---- reads ----------------------------------------------------------------------------------

  activity(activityId: string): ActivityView | undefined {
    return this.campaigns.activity(activityId);
  }
  activities(): ActivityView[] {
    return this.campaigns.activities();
  }
  activityEntry(activityId: string, userId: string): ActivityEntry | undefined {
    return this.campaigns.activityEntry(activityId, userId);
  }
  activitiesOf(userId: string): { activity: ActivityView; entry: ActivityEntry }[] {
    return this.campaigns.activitiesOf(userId);
  }
  activityRanking(activityId: string, limit: number): ActivityEntry[] {
    return this.campaigns.activityRanking(activityId, limit);
  }
  activityRank(activityId: string, userId: string): number {
    return this.campaigns.activityRank(activityId, userId);
  }
  /**
   * What a convert of `amount` on `symbol` by `userId` would do now (spot/convert.ts), or undefined for an unknown
   * market. Nothing changes.
   */
  convertPreview(symbol: string, side: 'BUY' | 'SELL', userId: string, amount: bigint): ConvertPreview | undefined {
    return this.spot.convertPreview(symbol, side, userId, amount);
  }

  otcConfig(): OtcConfig | undefined {
    return this.otc.otcConfig();
  }
  otcMerchant(userId: string): OtcMerchantView | undefined {
    return this.otc.otcMerchant(userId);
  }
  otcAd(adId: string): OtcAdView | undefined {
    return this.otc.otcAd(adId);
  }
  otcAds(userId?: string): OtcAdView[] {
    return this.otc.otcAds(userId);
  }
  otcOrder(orderId: string): OtcOrderView | undefined {
    return this.otc.otcOrder(orderId);
  }
  otcOpenOrders(userId?: string): OtcOrderView[] {
    return this.otc.otcOpenOrders(userId);
  }
  otcCancelsOn(userId: string, ts: number): number {
    return this.otc.otcCancelsOn(userId, ts);
  }

  perpMarket(symbol: string): PerpMarketConfig | undefined {
    return this.perp.perpMarket(symbol);
  }
  perpMarkets(): PerpMarketConfig[] {
    return this.perp.perpMarkets();
  }
  perpMarkState(symbol: string): PerpMarkState | undefined {
    return this.perp.perpMarkState(symbol);
  }
  perpOrder(orderId: string): PerpOrderView | undefined {
    return this.perp.perpOrder(orderId);
  }
  perpOpenOrders(userId: string, symbol?: string): PerpOrderView[] {
    return this.perp.perpOpenOrders(userId, symbol);
  }
  perpDepth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return this.perp.perpDepth(symbol, levels);
  }
  position(userId: string, symbol: string): PositionView | undefined {
    return this.perp.position(userId, symbol);
  }
  positions(userId: string): PositionView[] {
    return this.perp.positions(userId);
  }
  perpSettings(userId: string, symbol: string): PerpSettings {
    return this.perp.perpSettings(userId, symbol);
  }
  perpAccount(userId: string): PerpAccountView {
    return this.perp.perpAccount(userId);
  }
  perpLeverageMarginMove(userId: string, symbol: string, leverage: number): { position: bigint; orders: bigint } | undefined {
    return this.perp.perpLeverageMarginMove(userId, symbol, leverage);
  }
  positionCount(symbol: string): number {
    return this.perp.positionCount(symbol);
  }
  openInterest(symbol: string): bigint {
    return this.perp.openInterest(symbol);
  }

  rebateSettledThrough(): number {
    return this.rebate.rebateSettledThrough();
  }
  rebateAccrued(inviteeId: string): { day: number; inviterId: string; fee: bigint; rebate: bigint }[] {
    return this.rebate.rebateAccrued(inviteeId);
  }

  /** The id of the journal this state comes from (set by its genesis command), or null before genesis. */
  journalId(): string | null {
    return this.journal;
  }
  /** A registered user (a copy), or undefined. */
  user(userId: string): UserRecord | undefined {
    const u = this.users.get(userId);
    return u === undefined ? undefined : { ...u, uniqueKeys: [...u.uniqueKeys], profile: { ...u.profile } };
  }
  /** The id of the user owning a key (account or unique key), or undefined. */
  userByKey(key: string): string | undefined {
    return this.users.ownerOf(key);
  }
  /** Every registered user in id order (snapshot rows: [userId, account, uniqueKeys, profile]). */
  userRows(): UserRow[] {
    return this.users.rows();
  }
  /** An asset by code. */
  asset(code: string): Asset | undefined {
    return this.spot.asset(code);
  }
  /** All assets in the order they were added. */
  assets(): Asset[] {
    return this.spot.assets();
  }
  /** A market's configuration (with its current status). */
  market(symbol: string): MarketConfig | undefined {
    return this.spot.market(symbol);
  }
  /** All markets in the order they were added. */
  markets(): MarketConfig[] {
    return this.spot.markets();
  }
  /** Balance of one account in the asset's smallest unit (zeroes if it never existed). */
  balance(owner: string, account: AccountKind | 'SYSTEM', asset: string): Balance {
    return this.ledger.balance(owner, account, asset);
  }
  /** All non-zero balances of an owner: account -> asset -> balance. */
  balancesOf(owner: string): Map<AccountKind | 'SYSTEM', Map<string, Balance>> {
    return this.ledger.balancesOf(owner);
  }
  /** Any accepted order by id (open or closed). */
  order(orderId: string): OrderView | undefined {
    return this.spot.order(orderId);
  }
  /** Open orders of a user, oldest first, optionally for one market. */
  openOrders(userId: string, symbol?: string): OrderView[] {
    return this.spot.openOrders(userId, symbol);
  }
  /** A retained OCO list of the user by orderListId, or by listClientOrderId when orderListId is undefined, with its legs. */
  orderList(userId: string, orderListId: string | undefined, listClientOrderId?: string): OrderListWithOrders | undefined {
    return this.spot.orderList(userId, orderListId, listClientOrderId);
  }
  /** The user's retained OCO lists (only the executing ones when `executingOnly`), lowest orderListId first. */
  orderLists(userId: string, executingOnly: boolean): OrderListWithOrders[] {
    return this.spot.orderLists(userId, executingOnly);
  }
  /** Aggregated levels, best first, at most `levels` per side (empty for an unknown market). */
  depth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return this.spot.depth(symbol, levels);
  }
  /** Price of the last trade (price units), or null. */
  lastPrice(symbol: string): bigint | null {
    return this.spot.lastPrice(symbol);
  }
  /** A withdrawal not yet final (REVIEW ... CONFIRMING), or undefined (unknown or final: read the database). */
  withdrawal(withdrawalId: string): WithdrawalView | undefined {
    return this.wallet.withdrawal(withdrawalId);
  }
  /** Every withdrawal not yet final, oldest first. */
  openWithdrawals(): WithdrawalView[] {
    return this.wallet.openWithdrawals();
  }
  /** True when the chain deposit (chain, txHash, logIndex) was credited (creditDeposit; -1 = native transfer). */
  depositCredited(chain: string, txHash: string, logIndex: number): boolean {
    return this.wallet.depositCredited(chain, txHash, logIndex);
  }
  /** The wallet's recorded public identity (walletIdentity: SHA-256 hex of the deposit xpub), or null. */
  walletIdentity(): string | null {
    return this.wallet.identity();
  }
  /** Per asset: sum of both buckets over all accounts (0n for every asset). */
  assetTotals(): Map<string, bigint> {
    const t = this.ledger.assetTotals();
    for (const code of this.spot.assetCodes()) if (!t.has(code)) t.set(code, 0n);
    return t;
  }
  /** The book of a market (read-only use: tests and diagnostics). */
  bookOf(symbol: string): OrderBook | undefined {
    return this.spot.bookOf(symbol);
  }
  /**
   * The engine's own count of a user's resting orders in a market (the one the open-order cap
   * reads; 0 for an unknown user or market). Tests compare it with the book's orders.
   */
  openOrderCount(userId: string, symbol: string): number {
    return this.spot.openOrderCount(userId, symbol);
  }
  /** Units a resting order must hold (quote units for BUY, base units for SELL), or undefined if unknown. */
  requiredHold(orderId: string): bigint | undefined {
    return this.spot.requiredHold(orderId);
  }

  // ---- snapshot, restore, hash ----------------------------------------------------------------

  /**
   * JSON-serializable copy of the whole state; bigints as decimal strings. Canonical: zero
   * accounts are left out and every list has a fixed order, so equal states give equal snapshots.
   * The fields keep the order they had before spot became its own machine, so snapshots and hashes are unchanged.
   */
  snapshot(): EngineSnapshot {
    const accounts: [string, string, string, string, string][] = [];
    for (const a of this.ledger.accounts()) {
      if (a.available !== 0n || a.frozen !== 0n) accounts.push([a.owner, a.kind, a.asset, a.available.toString(), a.frozen.toString()]);
    }
    accounts.sort((x, y) => cmpStr(x[0], y[0]) || cmpStr(x[1], y[1]) || cmpStr(x[2], y[2]));
    const spot = this.spot.rows();
    return {
      version: 1,
      orderSeq: this.orderSeq,
      tradeSeq: this.tradeSeq,
      assets: spot.assets,
      markets: spot.markets,
      accounts,
      closedOrderRetention: spot.closedOrderRetention,
      openOrders: spot.openOrders,
      closedOrders: spot.closedOrders,

      idempotencyWindowMs: this.keys.windowMs,
      idempotencyKeys: this.keys.rows(),
      journalId: this.journal,
      userSeq: this.users.lastId,
      users: this.users.rows(),
      wallet: this.wallet.state.rows(),
      // only once a perpetual market exists, so earlier states keep their snapshots and hashes
      ...(this.perp.perpMarkets().length > 0 ? { perp: this.perp.rows() } : {}),
      // only once OTC is configured, for the same reason
      ...(this.otc.isEmpty ? {} : { otc: this.otc.rows() }),
      // only once an activity exists, for the same reason
      ...(this.campaigns.isEmpty ? {} : { activity: this.campaigns.rows() }),
      // only once a rebate was accrued or settled, for the same reason
      ...(this.rebate.isEmpty ? {} : { rebate: this.rebate.rows() }),
      // the machines given by the host, by name, each only once it is not empty (machine.ts)
      ...Object.fromEntries([...this.given].filter(([, g]) => !g.state.isEmpty).map(([name, g]) => [name, g.state.rows()])),
    };
  }

  /** Rebuild an engine from `snapshot()` output (possibly after a JSON round trip). Throws on a malformed snapshot. */
  static restore(snap: EngineSnapshot, opts?: EngineOptions): Engine {
    if (snap.version !== 1) throw new Error('restore: unsupported snapshot version');
    const d = snap as unknown as SnapshotV1;
    const e = new Engine({
      closedOrderRetention: d.closedOrderRetention,
      idempotencyWindowMs: d.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS,
      ...opts,
    });
    e.orderSeq = d.orderSeq;
    e.tradeSeq = d.tradeSeq;
    e.journal = d.journalId ?? null;
    e.users.restore(d.userSeq ?? 0, d.users ?? []);
    if (d.wallet !== undefined) e.wallet.state.restore(d.wallet);
    e.spot.restoreMarkets(d.assets, d.markets);
    for (const [owner, kind, asset, av, fr] of d.accounts) e.ledger.restoreAccount(owner, kind as LedgerKind, asset, BigInt(av), BigInt(fr));
    if (d.perp !== undefined) e.perp = PerpState.restore(d.perp, e.bookKind, (code) => e.spot.assetScale(code), e.ledger);
    if (d.otc !== undefined) e.otc = OtcState.restore(d.otc, e.ledger);
    if (d.activity !== undefined) e.campaigns = ActivityState.restore(d.activity, e.ledger);
    if (d.rebate !== undefined) e.rebate = RebateState.restore(d.rebate);
    for (const key of Object.keys(snap)) {
      if (!SNAPSHOT_FIELDS.has(key) && !e.given.has(key)) throw new MachineMissingError(key);
    }
    for (const [name, g] of e.given) {
      const rows = (snap as Record<string, unknown>)[name];
      if (rows !== undefined) g.state = g.machine.restore(rows, e.ledger);
    }
    e.spot.restoreOrders(d.openOrders, d.closedOrders);
    if (d.idempotencyKeys !== undefined) {
      e.keys.restoreRows(d.idempotencyKeys);
    } else {
      // A snapshot written before the key window existed: its deposit refs and transfer ids (kept
      // forever then) get the latest order time of the snapshot as their time, so they live one more window.
      const ts = e.spot.latestOrderTs();
      for (const [u, k] of d.depositRefs ?? []) e.keys.add(KEY_DEPOSIT, u, k, ts, 0);
      for (const [u, k] of d.transferIds ?? []) e.keys.add(KEY_TRANSFER, u, k, ts, 0);
    }
    return e;
  }

  /** sha256 hex of the canonical snapshot's JSON text; equal states give equal hashes. */
  stateHash(): string {
    return bytesToHex(sha256(utf8ToBytes(JSON.stringify(this.snapshot()))));
  }
}

/** The reads of the given machines (MachineReads), answered from their states (`give`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the reads are defined on the instance
export interface Engine extends MachineReads {}

/** Every command type of types.ts is routed to a machine: a type left out of `Engine.machines` fails to compile here. */
type Routed = ReturnType<Engine['machines']>[number]['commands'][number];
type Given = MachineCommands[keyof MachineCommands]['type'];
const everyCommandRouted: [Exclude<CommandType, Routed | Given>] extends [never] ? true : Exclude<CommandType, Routed | Given> = true;
void everyCommandRouted;

interface SnapshotV1 {
  version: 1;
  orderSeq: number;
  tradeSeq: number;
  assets: Asset[];
  markets: MarketRow[];

  accounts: [string, string, string, string, string][];
  closedOrderRetention: number;
  openOrders: OrderRow[];
  closedOrders: OrderRow[];
  /** absent in snapshots written before the key window (then all keys come from depositRefs/transferIds) */
  idempotencyWindowMs?: number;
  idempotencyKeys?: KeyRow[];
  /** absent in snapshots written before journal-assigned user ids */
  journalId?: string | null;
  userSeq?: number;
  users?: UserRow[];
  /** absent in snapshots written before the wallet */
  wallet?: { seq: number; open: WithdrawalRow[]; daily: DailyRow[]; credited: string[] };
  /** absent before the first perpetual market */
  perp?: PerpSnapshot;
  /** absent before OTC was configured */
  otc?: OtcSnapshot;
  /** absent before the first activity */
  activity?: ActivitySnapshot;
  /** absent before the first rebate accrual or settlement */
  rebate?: RebateSnapshot;
  /** only in snapshots written before the key window */
  depositRefs?: [string, string][];
  transferIds?: [string, string][];
}

/** The snapshot's own fields (every key of SnapshotV1): a given machine may not take one of these names. */
const SNAPSHOT_FIELD_LIST = [
  'version',
  'orderSeq',
  'tradeSeq',
  'assets',
  'markets',
  'accounts',
  'closedOrderRetention',
  'openOrders',
  'closedOrders',
  'idempotencyWindowMs',
  'idempotencyKeys',
  'journalId',
  'userSeq',
  'users',
  'wallet',
  'perp',
  'otc',
  'activity',
  'rebate',
  'depositRefs',
  'transferIds',
] as const satisfies readonly (keyof SnapshotV1)[];
const SNAPSHOT_FIELDS = new Set<string>(SNAPSHOT_FIELD_LIST);
/** A field added to SnapshotV1 and not to the list fails to compile here. */
const everySnapshotField: [Exclude<keyof SnapshotV1, (typeof SNAPSHOT_FIELD_LIST)[number]>] extends [never] ? true : never = true;
void everySnapshotField;

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
