/**
 * The perpetuals' accounts and risk figures, the bottom layer of the state machine (perp-market.ts lists the layers):
 * the state (markets, orders, settings, the command in progress), the CONTRACT and system accounts, payments from a user
 * or the fund (`pay`), the cross figures at the mark (wallet, unrealized PnL, maintenance margin), the max withdraw
 * amount (`spendable`), the liquidation test (`atRisk`) and the position and mark views.
 */
import type { Account, Ledger } from '../ledger/ledger';
import type { BookKind } from '../spot/book';
import type { Side } from '../types';
import { entryPriceOf, fundingRateE8, maintMargin, unrealizedPnl } from './math';
import { DEFAULT_LEVERAGE, type PerpMarkState, type PerpSettings, type PositionView } from './types';
import { E6, INSURANCE, type PerpHost, PerpMarket, PerpOrder, type Pos } from './perp-market';

/** The perpetuals' state, accounts and risk figures (the bottom layer). */
export abstract class PerpMargin {
  protected readonly markets = new Map<string, PerpMarket>();

  /** every retained perpetual order by seq (open, or among the last ended) */
  protected readonly orders = new Map<number, PerpOrder>();
  protected closed: PerpOrder[] = [];

  /** userId -> the user's open (resting) orders in id order */
  protected readonly open = new Map<string, Map<number, PerpOrder>>();

  /** userId -> clientOrderId -> retained order */
  protected readonly clientIds = new Map<string, Map<string, PerpOrder>>();

  /** userId -> symbol -> settings (only those changed from the defaults) */
  protected readonly settings = new Map<string, Map<string, PerpSettings>>();

  /** userId -> symbols with a position (for the account views) */
  protected readonly userMarkets = new Map<string, Set<string>>();
  protected host!: PerpHost;
  protected ts = 0;

  /** positions changed by the command: `${symbol}\u0000${userId}` -> view source (emitted at the end) */
  protected changed = new Map<string, Pos>();

  /** depth levels changed: `${symbol}|${side}|${price}` -> total */
  protected depth = new Map<string, { symbol: string; side: Side; price: bigint; quantity: bigint }>();

  /** `ledger`: the engine's ledger (reads between commands use it too). */
  constructor(
    protected readonly bookKind: BookKind,
    protected readonly ledger: Ledger,
  ) {}
  protected acc(userId: string, settle: string): Account {
    return userId === INSURANCE ? this.ledger.account(INSURANCE, 'SYSTEM', settle) : this.ledger.account(userId, 'CONTRACT', settle);
  }
  protected sys(owner: string, settle: string): Account {
    return this.ledger.account(owner, 'SYSTEM', settle);
  }
  protected settingsOf(userId: string, symbol: string): PerpSettings {
    return this.settings.get(userId)?.get(symbol) ?? { leverage: DEFAULT_LEVERAGE, marginMode: 'CROSS' };
  }
  protected saveSettings(userId: string, symbol: string, st: PerpSettings): void {
    let u = this.settings.get(userId);
    if (u === undefined) this.settings.set(userId, (u = new Map()));
    u.set(symbol, st);
    this.host.events.push({ type: 'perpSettingsChanged', ts: this.ts, userId, symbol, settings: { ...st } });
  }
  protected touch(p: Pos): void {
    p.updatedTs = this.ts;
    if (p.size > 0n) p.entry = entryPriceOf(p.cost, p.size, (this.markets.get(p.symbol) as PerpMarket).mult);
    this.changed.set(`${p.symbol}\u0000${p.userId}`, p);
  }
  protected depthAt(m: PerpMarket, side: Side, price: bigint, total: bigint): void {
    this.depth.set(`${m.cfg.symbol}|${side}|${price}`, { symbol: m.cfg.symbol, side, price, quantity: total });
  }

  /**
   * Pays `amount` (>= 0) from a user (or the fund) to a system account: an isolated position's loss from its margin,
   * then the available balance, then the paying order's hold `o` (`isoMarginLast`, a fill's: the available balance,
   * then `o`'s hold, then the margin); anything else from the available balance, then `o`'s
   * hold, then cross positions' margins; a rest nothing can pay is paid by the insurance fund (the user's buckets
   * never go negative), or, with `fundPays` false, returned unpaid (funding: the receivers get less). Liquidation runs before a
   * position's take profit or stop loss fires, so this fallback serves only closes between two mark ticks.
   */
  protected pay(
    userId: string,
    settle: string,
    amount: bigint,
    to: Account,
    iso: Pos | null,
    o: PerpOrder | null = null,
    fundPays = true,
    isoMarginLast = false,
  ): bigint {
    if (amount <= 0n) return 0n;
    const ledger = this.ledger;
    const a = this.acc(userId, settle);
    if (a.isSystem) {
      ledger.post(a, 'available', to, 'available', amount);
      return 0n;
    }
    let left = amount;
    // The paying order's hold (a fill's loss or fee): frozen money of the same user, before any position's margin.
    const fromHold = (): void => {
      if (o === null || o.hold === 0n || left === 0n) return;
      const h = left < o.hold ? left : o.hold;
      ledger.post(a, 'frozen', to, 'available', h);
      o.hold -= h;
      left -= h;
    };
    if (iso !== null) {
      const fromMargin = (): void => {
        const t = left < iso.margin ? left : iso.margin;
        if (t > 0n) {
          ledger.post(a, 'frozen', to, 'available', t);
          iso.margin -= t;
          this.touch(iso);
          left -= t;
        }
      };
      // A fill's loss or fee beyond the closed part's released margin: the available balance and the paying order's
      // hold before the margin of what stays open (so a partial close does not leave the rest under water while the
      // user has money, the fill guard's `brought`); funding: the margin first, as Binance takes it.
      if (!isoMarginLast) fromMargin();
      const u = left < a.available ? left : a.available;
      if (u > 0n) {
        ledger.post(a, 'available', to, 'available', u);
        left -= u;
      }
      fromHold();
      if (isoMarginLast) fromMargin();
    } else {
      const t = left < a.available ? left : a.available;
      if (t > 0n) {
        ledger.post(a, 'available', to, 'available', t);
        left -= t;
      }
      fromHold();
      if (left > 0n) {
        for (const sym of this.userMarkets.get(userId) ?? []) {
          const p = this.markets.get(sym)?.positions.get(userId);
          if (p === undefined || p.mode !== 'CROSS' || p.margin === 0n) continue;
          const u = left < p.margin ? left : p.margin;
          ledger.post(a, 'frozen', to, 'available', u);
          p.margin -= u;
          this.touch(p);
          left -= u;
          if (left === 0n) break;
        }
      }
    }
    if (left > 0n && fundPays) {
      ledger.post(this.sys(INSURANCE, settle), 'available', to, 'available', left);
      return 0n;
    }
    return left;
  }

  /** Mark price of a market for valuation: the mark, else the last trade, else the entry price of `p`. */
  protected valuePrice(m: PerpMarket, p: Pos): bigint {
    return m.markPrice ?? m.lastPrice ?? entryPriceOf(p.cost, p.size, m.mult);
  }

  /** Cross figures of a user at the current marks: wallet, unrealized PnL, maintenance margin x1e6. */
  protected crossFigures(userId: string): { wallet: bigint; upnl: bigint; mmE6: bigint; positions: number } {
    let upnl = 0n;
    let mmE6 = 0n;
    let isoMargins = 0n;
    let n = 0;
    let settle: string | null = null;
    for (const sym of this.userMarkets.get(userId) ?? []) {
      const m = this.markets.get(sym) as PerpMarket;
      const p = m.positions.get(userId) as Pos;
      settle ??= m.cfg.quote;
      if (p.mode === 'ISOLATED') {
        isoMargins += p.margin;
        continue;
      }
      const px = this.valuePrice(m, p);
      upnl += unrealizedPnl(p.side, p.size, p.cost, px, m.mult);
      // each position's maintenance margin rounded up (the user's disfavour, ARCHITECTURE.md section 5),
      // as math.ts maintMargin
      mmE6 += maintMargin(m.tiers, p.size * px * m.mult) * E6;
      n++;
    }
    let isoHolds = 0n;
    for (const o of this.open.get(userId)?.values() ?? []) if (o.marginMode === 'ISOLATED') isoHolds += o.hold;
    const s = settle ?? this.anySettle();
    const b = s === null ? { available: 0n, frozen: 0n } : this.ledger.balance(userId, 'CONTRACT', s);
    return { wallet: b.available + b.frozen - isoMargins - isoHolds, upnl, mmE6, positions: n };
  }
  protected anySettle(): string | null {
    for (const m of this.markets.values()) return m.cfg.quote;
    return null;
  }
  protected crossUpnl(userId: string): bigint {
    if (!this.userMarkets.has(userId)) return 0n;
    let upnl = 0n;
    for (const sym of this.userMarkets.get(userId) ?? []) {
      const m = this.markets.get(sym) as PerpMarket;
      const p = m.positions.get(userId) as Pos;
      if (p.mode === 'CROSS') upnl += unrealizedPnl(p.side, p.size, p.cost, this.valuePrice(m, p), m.mult);
    }
    return upnl;
  }

  /**
   * What a user may move out of the available balance of the CONTRACT account in `settle` (quote units, >= 0): the
   * available balance (the wallet less every position's initial margin and every order's hold) plus the unrealized
   * loss of the cross positions at the mark; an unrealized profit never counts. Binance's "max withdraw amount" (USDⓈ-M
   * futures account, single-asset mode): the cap of a transfer out, of an isolated margin top-up, of an order's hold
   * and of the extra margin a leverage decrease holds, so none of them can spend what covers a cross loss.
   */
  spendable(userId: string, settle: string): bigint {
    const a = this.ledger.find(userId, 'CONTRACT', settle);
    const upnl = this.crossUpnl(userId);
    const v = (a === undefined ? 0n : a.available) + (upnl < 0n ? upnl : 0n);
    return v > 0n ? v : 0n;
  }

  /**
   * True when the scope's maintenance margin (each position's rounded up to a quote unit) reached its margin balance
   * (risk level >= 100%, spec section 9).
   */
  protected atRisk(m: PerpMarket, p: Pos): boolean {
    if (p.mode === 'ISOLATED') {
      const px = this.valuePrice(m, p);
      const bal = p.margin + unrealizedPnl(p.side, p.size, p.cost, px, m.mult);
      return bal <= maintMargin(m.tiers, p.size * px * m.mult);
    }
    const f = this.crossFigures(p.userId);
    return (f.wallet + f.upnl) * E6 <= f.mmE6;
  }
  protected view(p: Pos): PositionView {
    const m = this.markets.get(p.symbol) as PerpMarket;
    return {
      userId: p.userId,
      symbol: p.symbol,
      side: p.side,
      size: p.size,
      cost: p.cost,
      entryPrice: p.size > 0n ? entryPriceOf(p.cost, p.size, m.mult) : (p.entry ?? 0n),
      margin: p.margin,
      marginMode: p.mode,
      leverage: p.leverage,
      realizedPnl: p.realizedPnl,
      funding: p.funding,
      fees: p.fees,
      takeProfit: p.tp,
      stopLoss: p.sl,
      openTs: p.openTs,
      updatedTs: p.updatedTs,
    };
  }
  protected markState(m: PerpMarket): PerpMarkState {
    return {
      symbol: m.cfg.symbol,
      indexPrice: m.indexPrice,
      markPrice: m.markPrice,
      lastPrice: m.lastPrice,
      predictedFundingRateE8: fundingRateE8(m.premiumWeighted, m.premiumWeights, m.cfg.interestRateE8, m.cfg.fundingCapE8),
      lastFundingRateE8: m.lastFundingRateE8,
      nextFundingTs: this.nextFunding(m),
      markTs: m.markTs,
      indexStale: m.indexStaleSince !== null,
      indexStaleSince: m.indexStaleSince,
    };
  }
  protected nextFunding(m: PerpMarket): number {
    return m.lastFundingTs + m.cfg.fundingIntervalMs;
  }
}
