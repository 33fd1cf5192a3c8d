/**
 * A read-only view of the engine that always reads the host's current engine object. The host replaces that
 * object when it rebuilds the state without a command that threw (engine-host.ts); services keep this view.
 */
import type {
  AccountKind,
  ActivityEntry,
  ActivityView,
  Asset,
  Balance,
  CommandResult,
  ConvertPreview,
  DepthLevel,
  Engine,
  EngineApi,
  EngineMachine,
  EngineSnapshot,
  MachineReads,
  MarketConfig,
  OrderListWithOrders,
  OrderView,
  OtcAdView,
  OtcConfig,
  OtcMerchantView,
  OtcOrderView,
  PerpAccountView,
  PerpMarkState,
  PerpMarketConfig,
  PerpOrderView,
  PerpSettings,
  PositionView,
  UserRecord,
  UserRow,
  WithdrawalView,
} from '@exchange/core';

/**
 * Delegates every read of EngineApi to `current()`; `execute` is refused (commands go through the host). The reads of
 * the machines the engine is given (`machines`: their `reads`, typed by MachineReads) are delegated the same way.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the machines' reads are defined on the instance
export interface EngineView extends MachineReads {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see above
export class EngineView implements EngineApi {
  constructor(
    private readonly current: () => Engine,
    machines: readonly EngineMachine[] = [],
  ) {
    for (const read of machines.flatMap((m) => m.reads)) {
      Object.defineProperty(this, read, {
        value: (...args: unknown[]) => (this.current() as unknown as Record<string, (...a: unknown[]) => unknown>)[read]!(...args),
      });
    }
  }

  execute(): CommandResult {
    throw new Error('EngineView: submit commands through the engine host');
  }
  asset(code: string): Asset | undefined {
    return this.current().asset(code);
  }
  assets(): Asset[] {
    return this.current().assets();
  }
  market(symbol: string): MarketConfig | undefined {
    return this.current().market(symbol);
  }
  markets(): MarketConfig[] {
    return this.current().markets();
  }
  balance(owner: string, account: AccountKind | 'SYSTEM', asset: string): Balance {
    return this.current().balance(owner, account, asset);
  }
  balancesOf(owner: string): Map<AccountKind | 'SYSTEM', Map<string, Balance>> {
    return this.current().balancesOf(owner);
  }
  order(orderId: string): OrderView | undefined {
    return this.current().order(orderId);
  }
  openOrders(userId: string, symbol?: string): OrderView[] {
    return this.current().openOrders(userId, symbol);
  }
  orderList(userId: string, orderListId: string | undefined, listClientOrderId?: string): OrderListWithOrders | undefined {
    return this.current().orderList(userId, orderListId, listClientOrderId);
  }
  orderLists(userId: string, executingOnly: boolean): OrderListWithOrders[] {
    return this.current().orderLists(userId, executingOnly);
  }
  depth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return this.current().depth(symbol, levels);
  }
  lastPrice(symbol: string): bigint | null {
    return this.current().lastPrice(symbol);
  }
  assetTotals(): Map<string, bigint> {
    return this.current().assetTotals();
  }
  withdrawal(withdrawalId: string): WithdrawalView | undefined {
    return this.current().withdrawal(withdrawalId);
  }
  openWithdrawals(): WithdrawalView[] {
    return this.current().openWithdrawals();
  }
  depositCredited(chain: string, txHash: string, logIndex: number): boolean {
    return this.current().depositCredited(chain, txHash, logIndex);
  }
  walletIdentity(): string | null {
    return this.current().walletIdentity();
  }
  journalId(): string | null {
    return this.current().journalId();
  }
  user(userId: string): UserRecord | undefined {
    return this.current().user(userId);
  }
  userByKey(key: string): string | undefined {
    return this.current().userByKey(key);
  }
  userRows(): UserRow[] {
    return this.current().userRows();
  }
  snapshot(): EngineSnapshot {
    return this.current().snapshot();
  }
  stateHash(): string {
    return this.current().stateHash();
  }
  perpMarket(symbol: string): PerpMarketConfig | undefined {
    return this.current().perpMarket(symbol);
  }
  perpMarkets(): PerpMarketConfig[] {
    return this.current().perpMarkets();
  }
  perpMarkState(symbol: string): PerpMarkState | undefined {
    return this.current().perpMarkState(symbol);
  }
  perpOrder(orderId: string): PerpOrderView | undefined {
    return this.current().perpOrder(orderId);
  }
  perpOpenOrders(userId: string, symbol?: string): PerpOrderView[] {
    return this.current().perpOpenOrders(userId, symbol);
  }
  perpDepth(symbol: string, levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return this.current().perpDepth(symbol, levels);
  }
  position(userId: string, symbol: string): PositionView | undefined {
    return this.current().position(userId, symbol);
  }
  positions(userId: string): PositionView[] {
    return this.current().positions(userId);
  }
  perpSettings(userId: string, symbol: string): PerpSettings {
    return this.current().perpSettings(userId, symbol);
  }
  perpAccount(userId: string): PerpAccountView {
    return this.current().perpAccount(userId);
  }
  positionCount(symbol: string): number {
    return this.current().positionCount(symbol);
  }
  openInterest(symbol: string): bigint {
    return this.current().openInterest(symbol);
  }
  perpLeverageMarginMove(userId: string, symbol: string, leverage: number): { position: bigint; orders: bigint } | undefined {
    return this.current().perpLeverageMarginMove(userId, symbol, leverage);
  }
  convertPreview(symbol: string, side: 'BUY' | 'SELL', userId: string, amount: bigint): ConvertPreview | undefined {
    return this.current().convertPreview(symbol, side, userId, amount);
  }
  otcConfig(): OtcConfig | undefined {
    return this.current().otcConfig();
  }
  otcMerchant(userId: string): OtcMerchantView | undefined {
    return this.current().otcMerchant(userId);
  }
  otcAd(adId: string): OtcAdView | undefined {
    return this.current().otcAd(adId);
  }
  otcAds(userId?: string): OtcAdView[] {
    return this.current().otcAds(userId);
  }
  otcOrder(orderId: string): OtcOrderView | undefined {
    return this.current().otcOrder(orderId);
  }
  otcOpenOrders(userId?: string): OtcOrderView[] {
    return this.current().otcOpenOrders(userId);
  }
  otcCancelsOn(userId: string, ts: number): number {
    return this.current().otcCancelsOn(userId, ts);
  }
  // activities
  activity(activityId: string): ActivityView | undefined {
    return this.current().activity(activityId);
  }
  activities(): ActivityView[] {
    return this.current().activities();
  }
  activityEntry(activityId: string, userId: string): ActivityEntry | undefined {
    return this.current().activityEntry(activityId, userId);
  }
  activitiesOf(userId: string): { activity: ActivityView; entry: ActivityEntry }[] {
    return this.current().activitiesOf(userId);
  }
  activityRanking(activityId: string, limit: number): ActivityEntry[] {
    return this.current().activityRanking(activityId, limit);
  }
  activityRank(activityId: string, userId: string): number {
    return this.current().activityRank(activityId, userId);
  }
  rebateSettledThrough(): number {
    return this.current().rebateSettledThrough();
  }
  rebateAccrued(inviteeId: string): { day: number; inviterId: string; fee: bigint; rebate: bigint }[] {
    return this.current().rebateAccrued(inviteeId);
  }
}
