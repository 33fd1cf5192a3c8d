/**
 * The exchange engine: a deterministic state machine, commands in, events out (ARCHITECTURE.md section 2).
 * No I/O, no clock (time comes with each command), no randomness. Balances live in a double-entry
 * ledger (ledger/ledger.ts); spot matching lives in spot/spot-market.ts.
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
import type { EngineApi, EngineSnapshot } from './engine-api';
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
import { WalletEngine, type WalletHost } from './wallet/wallet-engine';
import { isKey, isNonNegInt, MAX_SAFE } from './checks';
import type { DailyRow, WithdrawalRow } from './wallet/withdrawals';
import { type Account, Ledger, type LedgerKind } from './ledger/ledger';
import { OtcState, type OtcHost, type OtcSnapshot } from './otc/otc-engine';
import { EarnState, type EarnSnapshot } from './earn/earn-engine';
import type { EarnCommand, EarnLockView, EarnProductView } from './earn/types';
import { previewConvert, type ConvertPreview } from './spot/convert';
import type { OtcAdView, OtcCommand, OtcConfig, OtcMerchantView, OtcOrderView } from './otc/types';
import { ActivityState, type ActivityHost, type ActivitySnapshot } from './activity/activity-engine';
import type { ActivityCommand, ActivityEntry, ActivityView } from './activity/types';
import { PerpState, type PerpHost, type PerpSnapshot } from './perp/perp-engine';
import { RebateState, type RebateSnapshot } from './rebate/rebate-state';
import { REBATE_ASSET, type RebateCommand } from './rebate/types';
import type { PerpAccountView, PerpCommand, PerpMarkState, PerpMarketConfig, PerpOrderView, PerpSettings, PositionView } from './perp/types';
import type { BookKind, OrderBook } from './spot/book';
import { Order } from './spot/order';
import { OrderIndex } from './spot/order-index';
import { type MarketUser, SpotMarket, type SpotHost, Trader } from './spot/spot-market';
import { UserRegistry, type UserRecord, type UserRow } from './users';
import {
  type AccountKind,
  type Asset,
  type Balance,
  type Command,
  type CommandResult,
  type DepthLevel,
  type EngineEvent,
  type MarketConfig,
  type MarketStatus,
  type OrderView,
  type RejectCode,
  type WithdrawalView,
} from './types';

export { parseCommand, serializeCommand } from './codec';

/** Engine construction options. */
export interface EngineOptions {
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

export { DEFAULT_IDEMPOTENCY_WINDOW_MS } from './idempotency';

/** Default of `EngineOptions.closedOrderRetention`. */
export const DEFAULT_CLOSED_ORDER_RETENTION = 1_000;

/** Largest asset scale accepted by addAsset (decimal places). */
export const MAX_ASSET_SCALE = 36;
export { MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency';

function reject(code: RejectCode): CommandResult {
  return { code, events: [] };
}

/** The engine (see the file comment). */
export class Engine implements EngineApi, SpotHost, PerpHost, OtcHost, ActivityHost, WalletHost {
  readonly ledger = new Ledger();
  events: EngineEvent[] = [];
  private readonly bookKind: BookKind;
  private readonly assetsByCode = new Map<string, Asset>();
  private readonly marketsBySymbol = new Map<string, SpotMarket>();
  /** Every retained order (open, or among the last ended) by sequence number. */
  private readonly orders = new OrderIndex();
  /**
   * userId -> the user's working record (spot/trader.ts): open orders oldest first, client order ids
   * of retained orders, per-market resting counts and accounts. Derived from the orders (rebuilt by
   * restore), so not part of snapshots; one lookup per command.
   */
  private readonly traders = new Map<string, Trader>();
  /** Idempotency keys of orders, deposits and transfers for the window of command time. */
  private readonly keys: KeyWindow;
  /** Ended orders still retained, oldest first, from index `closedHead`. */
  private closedQueue: (Order | undefined)[] = [];
  private closedHead = 0;
  private readonly closedOrderRetention: number;
  private orderSeq = 0;
  private tradeSeq = 0;
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
  /** Fixed-term savings (earn/earn-engine.ts). */
  private earn: EarnState;

  constructor(opts?: EngineOptions) {
    this.bookKind = opts?.book ?? 'fast';
    const r = opts?.closedOrderRetention ?? DEFAULT_CLOSED_ORDER_RETENTION;
    if (!isNonNegInt(r, 2 ** 40)) throw new RangeError('closedOrderRetention must be a non-negative integer');
    this.closedOrderRetention = r;
    const w = opts?.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    if (!isNonNegInt(w, 2 ** 53 - 1)) throw new RangeError('idempotencyWindowMs must be a non-negative integer');
    this.keys = new KeyWindow(w);
    this.perp = new PerpState(this.bookKind, this.ledger);
    this.otc = new OtcState(this.ledger);
    this.campaigns = new ActivityState(this.ledger);
    this.earn = new EarnState(this.ledger);
  }

  // ---- SpotHost -------------------------------------------------------------------------------

  /** @internal */
  allocOrderSeq(): number {
    return ++this.orderSeq;
  }
  /** @internal */
  allocTradeId(): string {
    return `${++this.tradeSeq}`;
  }
  /** @internal */
  traderFor(userId: string): Trader {
    let t = this.traders.get(userId);
    if (t === undefined) {
      t = new Trader(userId);
      this.traders.set(userId, t);
    }
    return t;
  }
  /** @internal */
  registerOrder(o: Order): void {
    this.orders.set(o);
    if (o.clientOrderId !== null) {
      const t = o.mu !== null ? o.mu.trader : this.traderFor(o.userId);
      (t.clientOrders ??= new Map()).set(o.clientOrderId, o);
    }
  }
  /** @internal */
  orderClosed(o: Order): void {
    o.userList?.unlink(o);
    this.orderEnded(o);
  }
  /** @internal */
  orderEnded(o: Order): void {
    if (o.hold !== 0n) throw new Error(`engine: order ${o.orderId} ended with hold ${o.hold}`);
    const q = this.closedQueue;
    q.push(o);
    if (q.length - this.closedHead > this.closedOrderRetention) {
      const old = q[this.closedHead] as Order;
      q[this.closedHead++] = undefined;
      this.forget(old);
      if (this.closedHead >= 1024 && this.closedHead * 2 >= q.length) {
        this.closedQueue = q.slice(this.closedHead);
        this.closedHead = 0;
      }
    }
  }
  private forget(o: Order): void {
    this.orders.delete(o.seq);
    if (o.clientOrderId !== null) {
      const m = this.traders.get(o.userId)?.clientOrders;
      if (m != null && m.get(o.clientOrderId) === o) m.delete(o.clientOrderId);
    }
  }

  // ---- commands -------------------------------------------------------------------------------

  /** Apply one command; business rejections are result codes, never exceptions. */
  execute(cmd: Command): CommandResult {
    this.events = [];
    this.ledger.beginCommand();
    let r: CommandResult;
    switch (cmd.type) {
      case 'genesis':
        r = this.genesis(cmd);
        break;
      case 'registerUser':
      case 'updateUser':
        r = this.users.execute(cmd, this.events);
        break;
      case 'placeOrder':
        r = this.placeOrder(cmd);
        break;
      case 'cancelOrder':
        r = this.cancelOrder(cmd);
        break;
      case 'deposit':
      case 'transfer':
      case 'creditDeposit':
      case 'requestWithdrawal':
      case 'approveWithdrawal':
      case 'rejectWithdrawal':
      case 'broadcastWithdrawal':
      case 'withdrawalMined':
      case 'completeWithdrawal':
      case 'failWithdrawal':
        r = this.wallet.execute(cmd, this);
        break;
      case 'addAsset':
        r = this.addAsset(cmd);
        break;
      case 'addMarket':
        r = this.addMarket(cmd);
        break;
      case 'setMarketStatus':
        r = this.setMarketStatus(cmd);
        break;
      case 'addPerpMarket':
      case 'perpPlaceOrder':
      case 'perpCancelOrder':
      case 'perpSetLeverage':
      case 'perpSetMarginMode':
      case 'perpAdjustMargin':
      case 'perpSetTpSl':
      case 'perpMarkPrice':
      case 'perpFunding':
      case 'fundInsurance':
        r = this.perp.execute(cmd as PerpCommand, this);
        // Invitation rebates: the USDT contract fees of the command's fills accrue to the invitees' days.
        if (r.events.length > 0) this.accrueRebates(r.events);
        break;
      case 'settleRebates':
        r = this.rebate.execute(cmd as RebateCommand, this);
        break;
      case 'otcConfigure':
      case 'otcApplyMerchant':
      case 'otcReviewMerchant':
      case 'otcSetMerchantStatus':
      case 'otcLeaveMerchant':
      case 'otcPublishAd':
      case 'otcUpdateAd':
      case 'otcSetAdStatus':
      case 'otcTakeAd':
      case 'otcMarkPaid':
      case 'otcRelease':
      case 'otcCancelOrder':
      case 'otcAppeal':
      case 'otcCancelAppeal':
      case 'otcResolveAppeal':
        r = this.otc.execute(cmd as OtcCommand, this);
        break;
      case 'activityCreate':
      case 'activityEnd':
      case 'activityJoin':
      case 'activitySettle':
        r = this.campaigns.execute(cmd as ActivityCommand, this);
        break;
      case 'earnSetProduct':
      case 'earnLock':
      case 'earnRedeem':
      case 'earnSettle':
        r = this.earn.execute(cmd as EarnCommand, this);
        break;
      case 'convert':
        r = this.convert(cmd);
        break;
      default:
        r = reject('invalid_order');
    }
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

  private placeOrder(cmd: Extract<Command, { type: 'placeOrder' }>): CommandResult {
    const cid = cmd.clientOrderId;
    const trader = this.traders.get(cmd.userId);
    if (cid !== undefined) {
      // The key (within the window) names the latest order with this client id; past the window, a
      // still retained order with it counts too (so open orders never share a client id).
      const k = this.keys.lookup(KEY_ORDER, cmd.userId, cid, cmd.ts);
      const prev = k !== undefined ? this.orders.get(k.seq) : trader?.clientOrders?.get(cid);
      if (prev !== undefined) return { code: 'ok', events: [], order: prev.toView(), duplicateOfOrderId: prev.orderId };
      if (k !== undefined) return { code: 'ok', events: [], duplicateOfOrderId: `${k.seq}` };
    }
    const m = this.marketsBySymbol.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (this.isFrozen(cmd.userId)) return reject('account_frozen');
    const r = m.place(cmd, this, trader);
    if (cid !== undefined && r.code === 'ok') this.keys.add(KEY_ORDER, cmd.userId, cid, cmd.ts, this.orderSeq);
    return r;
  }

  private convert(cmd: Extract<Command, { type: 'convert' }>): CommandResult {
    const { userId, symbol, side, amount, minReceive, expiresTs, clientId, ts } = cmd;
    if (
      typeof clientId !== 'string' ||
      typeof amount !== 'bigint' ||
      typeof minReceive !== 'bigint' ||
      minReceive < 0n ||
      !isNonNegInt(expiresTs, MAX_SAFE) ||
      (side !== 'BUY' && side !== 'SELL')
    ) {
      return reject('invalid_order');
    }
    // A retry of an accepted convert returns its order, whatever the time (placeOrder's key).
    const dup = this.keys.lookup(KEY_ORDER, userId, clientId, ts);
    if (dup === undefined) {
      if (ts > expiresTs) return reject('convert_quote_expired');
      const m = this.marketsBySymbol.get(symbol);
      if (m === undefined) return reject('market_not_found');
      if (amount <= 0n) return reject('amount_invalid');
      if (side === 'SELL' && amount % (m.baseMult * m.config.stepSize) !== 0n) return reject('quantity_not_on_step');
      if (
        m.config.status === 'TRADING' &&
        m.book.bestPrice(side === 'BUY' ? 'SELL' : 'BUY') !== null &&
        previewConvert(m, side, userId, amount).receive < minReceive
      ) {
        return reject('convert_slippage');
      }
      const sell = side === 'SELL';
      return this.placeOrder({
        type: 'placeOrder',
        ts,
        userId,
        symbol,
        side,
        orderType: 'MARKET',
        timeInForce: 'IOC',
        ...(sell ? { quantity: amount / m.baseMult } : { quoteAmount: amount }),
        clientOrderId: clientId,
      });
    }
    return this.placeOrder({ type: 'placeOrder', ts, userId, symbol, side, orderType: 'MARKET', timeInForce: 'IOC', clientOrderId: clientId });
  }

  private cancelOrder(cmd: Extract<Command, { type: 'cancelOrder' }>): CommandResult {
    const { userId, orderId, clientOrderId } = cmd;
    if (typeof userId !== 'string' || (orderId === undefined) === (clientOrderId === undefined)) return reject('invalid_order');
    const o = orderId !== undefined ? this.orders.get(parseOrderId(orderId)) : this.traders.get(userId)?.clientOrders?.get(clientOrderId as string);
    if (o === undefined || o.userId !== userId) return reject('order_not_found');
    if (!o.isOpen) return { code: 'order_not_found', events: [], order: o.toView() };
    // An open order always has its market record (set when accepted or restored).
    const view = (o.mu as MarketUser).market.cancel(o, this, cmd.ts);
    return { code: 'ok', events: this.events, order: view };
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

  private addAsset(cmd: Extract<Command, { type: 'addAsset' }>): CommandResult {
    const a = cmd.asset;
    if (a !== null && typeof a === 'object' && this.assetsByCode.has(a.code)) return reject('asset_exists');
    if (a === null || typeof a !== 'object' || !isKey(a.code, 32) || a.code.includes('/') || !isNonNegInt(a.scale, MAX_ASSET_SCALE)) {
      return reject('invalid_config');
    }
    const asset: Asset = { code: a.code, scale: a.scale };
    this.assetsByCode.set(asset.code, asset);
    this.events.push({ type: 'assetAdded', ts: cmd.ts, asset: { ...asset } });
    return { code: 'ok', events: this.events };
  }

  private addMarket(cmd: Extract<Command, { type: 'addMarket' }>): CommandResult {
    const c = cmd.market;
    if (c !== null && typeof c === 'object' && this.marketsBySymbol.has(c.symbol)) return reject('market_exists');
    if (
      c === null ||
      typeof c !== 'object' ||
      !isKey(c.symbol, 64) ||
      !isKey(c.base, 32) ||
      !isKey(c.quote, 32) ||
      c.base === c.quote ||
      !isNonNegInt(c.priceDecimals, MAX_ASSET_SCALE) ||
      !isNonNegInt(c.qtyDecimals, MAX_ASSET_SCALE) ||
      typeof c.tickSize !== 'bigint' ||
      c.tickSize <= 0n ||
      typeof c.stepSize !== 'bigint' ||
      c.stepSize <= 0n ||
      typeof c.minQty !== 'bigint' ||
      c.minQty < 0n ||
      typeof c.minNotional !== 'bigint' ||
      c.minNotional < 0n ||
      !isNonNegInt(c.makerFeePpm, 1_000_000) ||
      !isNonNegInt(c.takerFeePpm, 1_000_000) ||
      (c.status !== 'TRADING' && c.status !== 'HALTED')
    ) {
      return reject('invalid_config');
    }
    const base = this.assetsByCode.get(c.base);
    const quote = this.assetsByCode.get(c.quote);
    if (base === undefined || quote === undefined) return reject('asset_not_found');
    if (c.priceDecimals + c.qtyDecimals > quote.scale || c.qtyDecimals > base.scale) return reject('invalid_config');
    const market = new SpotMarket(c, base.scale, quote.scale, this.bookKind, this.ledger, this.marketsBySymbol.size);
    this.marketsBySymbol.set(c.symbol, market);
    this.events.push({ type: 'marketAdded', ts: cmd.ts, market: { ...market.config } });
    return { code: 'ok', events: this.events };
  }

  private setMarketStatus(cmd: Extract<Command, { type: 'setMarketStatus' }>): CommandResult {
    if (cmd.status !== 'TRADING' && cmd.status !== 'HALTED') return reject('invalid_config');
    const m = this.marketsBySymbol.get(cmd.symbol);
    if (m === undefined) return reject('market_not_found');
    if (m.config.status !== cmd.status) {
      m.config.status = cmd.status;
      this.events.push({ type: 'marketStatusChanged', ts: cmd.ts, symbol: cmd.symbol, status: cmd.status });
    }
    return { code: 'ok', events: this.events };
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
    return this.assetsByCode.get(code)?.scale;
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
    return this.marketsBySymbol.get(symbol)?.config.quote;
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
  earnProducts(): EarnProductView[] {
    return this.earn.earnProducts();
  }
  earnProduct(productId: string): EarnProductView | undefined {
    return this.earn.earnProduct(productId);
  }
  earnLock(lockId: string): EarnLockView | undefined {
    return this.earn.earnLock(lockId);
  }
  earnLocks(userId?: string): EarnLockView[] {
    return this.earn.earnLocks(userId);
  }
  /**
   * What a convert of `amount` on `symbol` by `userId` would do now (spot/convert.ts), or undefined for an unknown
   * market. Nothing changes.
   */
  convertPreview(symbol: string, side: 'BUY' | 'SELL', userId: string, amount: bigint): ConvertPreview | undefined {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? undefined : previewConvert(m, side, userId, amount);
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
    const a = this.assetsByCode.get(code);
    return a === undefined ? undefined : { ...a };
  }
  /** All assets in the order they were added. */
  assets(): Asset[] {
    return [...this.assetsByCode.values()].map((a) => ({ ...a }));
  }
  /** A market's configuration (with its current status). */
  market(symbol: string): MarketConfig | undefined {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? undefined : { ...m.config };
  }
  /** All markets in the order they were added. */
  markets(): MarketConfig[] {
    return [...this.marketsBySymbol.values()].map((m) => ({ ...m.config }));
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
    return this.orders.get(parseOrderId(orderId))?.toView();
  }
  /** Open orders of a user, oldest first, optionally for one market. */
  openOrders(userId: string, symbol?: string): OrderView[] {
    const out: OrderView[] = [];
    for (let o = this.traders.get(userId)?.head ?? null; o !== null; o = o.userNext) {
      if (symbol === undefined || o.symbol === symbol) out.push(o.toView());
    }
    return out;
  }
  /** Aggregated levels, best first, at most `levels` per side (empty for an unknown market). */
  depth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const m = this.marketsBySymbol.get(symbol);
    if (m === undefined) return { bids: [], asks: [] };
    return { bids: m.book.depth('BUY', levels), asks: m.book.depth('SELL', levels) };
  }
  /** Price of the last trade (price units), or null. */
  lastPrice(symbol: string): bigint | null {
    return this.marketsBySymbol.get(symbol)?.lastPrice ?? null;
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
  /** Per asset: sum of both buckets over all accounts (0n for every asset). */
  assetTotals(): Map<string, bigint> {
    const t = this.ledger.assetTotals();
    for (const code of this.assetsByCode.keys()) if (!t.has(code)) t.set(code, 0n);
    return t;
  }
  /** The book of a market (read-only use: tests and diagnostics). */
  bookOf(symbol: string): OrderBook | undefined {
    return this.marketsBySymbol.get(symbol)?.book;
  }
  /**
   * The engine's own count of a user's resting orders in a market (the one the open-order cap
   * reads; 0 for an unknown user or market). Tests compare it with the book's orders.
   */
  openOrderCount(userId: string, symbol: string): number {
    const m = this.marketsBySymbol.get(symbol);
    return m === undefined ? 0 : (this.traders.get(userId)?.markets[m.index]?.openCount ?? 0);
  }
  /** Units a resting order must hold (quote units for BUY, base units for SELL), or undefined if unknown. */
  requiredHold(orderId: string): bigint | undefined {
    const o = this.orders.get(parseOrderId(orderId));
    if (o === undefined || !o.isOpen) return undefined;
    return this.marketsBySymbol.get(o.symbol)?.requiredHold(o);
  }

  // ---- snapshot, restore, hash ----------------------------------------------------------------

  /**
   * JSON-serializable copy of the whole state; bigints as decimal strings. Canonical: zero
   * accounts are left out and every list has a fixed order, so equal states give equal snapshots.
   */
  snapshot(): EngineSnapshot {
    const s = (v: bigint | null): string | null => (v === null ? null : v.toString());
    const accounts: [string, string, string, string, string][] = [];
    for (const a of this.ledger.accounts()) {
      if (a.available !== 0n || a.frozen !== 0n) accounts.push([a.owner, a.kind, a.asset, a.available.toString(), a.frozen.toString()]);
    }
    accounts.sort((x, y) => cmpStr(x[0], y[0]) || cmpStr(x[1], y[1]) || cmpStr(x[2], y[2]));
    const row = (o: Order): unknown[] => [
      o.seq,
      o.clientOrderId,
      o.userId,
      o.symbol,
      o.side,
      o.orderType,
      o.timeInForce,
      s(o.price),
      s(o.quantity),
      s(o.quoteAmount),
      o.feeAsset,
      o.stp,
      o.createdTs,
      o.updatedTs,
      o.status,
      o.filledQty.toString(),
      o.filledQuote.toString(),
      o.fee.toString(),
      o.remaining.toString(),
      o.hold.toString(),
    ];
    const open: unknown[] = [];
    for (const o of this.orders.values()) if (o.isOpen) open.push(row(o));
    const closed: unknown[] = [];
    for (let i = this.closedHead; i < this.closedQueue.length; i++) closed.push(row(this.closedQueue[i] as Order));
    return {
      version: 1,
      orderSeq: this.orderSeq,
      tradeSeq: this.tradeSeq,
      assets: [...this.assetsByCode.values()].map((a) => ({ code: a.code, scale: a.scale })),
      markets: [...this.marketsBySymbol.values()].map((m) => ({
        symbol: m.config.symbol,
        base: m.config.base,
        quote: m.config.quote,
        priceDecimals: m.config.priceDecimals,
        qtyDecimals: m.config.qtyDecimals,
        tickSize: m.config.tickSize.toString(),
        stepSize: m.config.stepSize.toString(),
        minQty: m.config.minQty.toString(),
        minNotional: m.config.minNotional.toString(),
        makerFeePpm: m.config.makerFeePpm,
        takerFeePpm: m.config.takerFeePpm,
        status: m.config.status,
        lastPrice: s(m.lastPrice),
      })),
      accounts,
      closedOrderRetention: this.closedOrderRetention,
      openOrders: open,
      closedOrders: closed,
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
      // only once a savings product exists, for the same reason
      ...(this.earn.isEmpty ? {} : { earn: this.earn.rows() }),
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
    for (const a of d.assets) e.assetsByCode.set(a.code, { code: a.code, scale: a.scale });
    for (const m of d.markets) {
      const cfg: MarketConfig = {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        priceDecimals: m.priceDecimals,
        qtyDecimals: m.qtyDecimals,
        tickSize: BigInt(m.tickSize),
        stepSize: BigInt(m.stepSize),
        minQty: BigInt(m.minQty),
        minNotional: BigInt(m.minNotional),
        makerFeePpm: m.makerFeePpm,
        takerFeePpm: m.takerFeePpm,
        status: m.status,
      };
      const base = e.assetsByCode.get(cfg.base) as Asset;
      const quote = e.assetsByCode.get(cfg.quote) as Asset;
      const market = new SpotMarket(cfg, base.scale, quote.scale, e.bookKind, e.ledger, e.marketsBySymbol.size);
      market.lastPrice = m.lastPrice === null ? null : BigInt(m.lastPrice);
      e.marketsBySymbol.set(cfg.symbol, market);
    }
    for (const [owner, kind, asset, av, fr] of d.accounts) e.ledger.restoreAccount(owner, kind as LedgerKind, asset, BigInt(av), BigInt(fr));
    if (d.perp !== undefined) e.perp = PerpState.restore(d.perp, e.bookKind, (code) => e.assetsByCode.get(code)?.scale, e.ledger);
    if (d.otc !== undefined) e.otc = OtcState.restore(d.otc, e.ledger);
    if (d.activity !== undefined) e.campaigns = ActivityState.restore(d.activity, e.ledger);
    if (d.rebate !== undefined) e.rebate = RebateState.restore(d.rebate);
    if (d.earn !== undefined) e.earn = EarnState.restore(d.earn, e.ledger);
    const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));
    const toOrder = (r: OrderRow): Order => {
      const o = new Order(r[0], `${r[0]}`, r[1], r[2], r[3], r[4], r[5], r[6], big(r[7]), big(r[8]), big(r[9]), r[10], r[11], r[12]);
      o.updatedTs = r[13];
      o.status = r[14];
      o.filledQty = BigInt(r[15]);
      o.filledQuote = BigInt(r[16]);
      o.fee = BigInt(r[17]);
      o.remaining = BigInt(r[18]);
      o.hold = BigInt(r[19]);
      e.registerOrder(o);
      return o;
    };
    // Open orders are stored in id order, which is arrival order, so FIFO within each level is kept.
    for (const r of d.openOrders) {
      const o = toOrder(r);
      (e.marketsBySymbol.get(o.symbol) as SpotMarket).restoreResting(o, e.traderFor(o.userId), e.ledger);
    }
    // Ended orders in the order they ended (the retention queue). A (userId, clientOrderId) belongs
    // to at most one retained order, since a retry of a retained key never creates an order.
    for (const r of d.closedOrders) e.closedQueue.push(toOrder(r));
    if (d.idempotencyKeys !== undefined) {
      e.keys.restoreRows(d.idempotencyKeys);
    } else {
      // A snapshot written before the key window existed: its deposit refs and transfer ids (kept
      // forever then) get the latest order time of the snapshot as their time, so they live one more window.
      let ts = 0;
      for (const o of e.orders.values()) if (o.updatedTs > ts) ts = o.updatedTs;
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

type OrderRow = [
  number,
  string | null,
  string,
  string,
  OrderView['side'],
  OrderView['orderType'],
  OrderView['timeInForce'],
  string | null,
  string | null,
  string | null,
  string,
  Order['stp'],
  number,
  number,
  OrderView['status'],
  string,
  string,
  string,
  string,
  string,
];

interface SnapshotV1 {
  version: 1;
  orderSeq: number;
  tradeSeq: number;
  assets: Asset[];
  markets: {
    symbol: string;
    base: string;
    quote: string;
    priceDecimals: number;
    qtyDecimals: number;
    tickSize: string;
    stepSize: string;
    minQty: string;
    minNotional: string;
    makerFeePpm: number;
    takerFeePpm: number;
    status: MarketStatus;
    lastPrice: string | null;
  }[];
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
  /** absent before the first savings product */
  earn?: EarnSnapshot;
  /** only in snapshots written before the key window */
  depositRefs?: [string, string][];
  transferIds?: [string, string][];
}

/**
 * The sequence number of a canonical order id ("1", "42"; no sign, no leading zeros, at most 15
 * digits), or -1 for anything else (which then matches no order).
 */
export function parseOrderId(id: string): number {
  const n = typeof id === 'string' ? id.length : 0;
  if (n === 0 || n > 15 || (n > 1 && id.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
