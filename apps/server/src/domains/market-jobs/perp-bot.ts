/**
 * The liquidity bot of a perpetual market: the spot LiquidityBot (liquidity-bot.ts: the ladder shaped on a
 * real Binance book, the taker flow sized on the reference's volume) run on a perpetual venue. It quotes around the
 * market's index price, the fair value the mark price is anchored on (the mark before any index), and trades
 * through the perpetuals service's placeOrder
 * and cancelOrder, the same layer as users' orders. Its two users ('mp-<BASE>-<QUOTE>' and '...-taker') hold USDT
 * margin in their CONTRACT accounts, funded from '@faucet' (a restart pays only a shortfall), at PERP_BOT_LEVERAGE in
 * cross margin; a taker order is a MARKET order of the best level's quantity (the perpetuals service's LIMIT orders
 * rest, GTC).
 */
import { formatDecimal, type MarketConfig, type PerpMarketConfig } from '@exchange/core';
import type { FastifyBaseLogger } from 'fastify';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { PerpService } from '../perp/perp.service';
import type { BotOrders, BotVenue } from './liquidity-bot';

/** The bots' leverage: a ladder of both sides holds about 2/5 of its notional as margin; no liquidation within a 15% move of a position the size of the ladder. */
export const PERP_BOT_LEVERAGE = 5;
/** Smallest order of the ladder, quote units (5 USDT, as the spot markets' minimum notional). */
const MIN_NOTIONAL = 500_000_000n;

/** Bot user ids of a perpetual market ('mp-', never a database user). */
export function perpBotUserIds(m: Pick<PerpMarketConfig, 'base' | 'quote'>): { maker: string; taker: string } {
  const maker = `mp-${m.base}-${m.quote}`;
  return { maker, taker: `${maker}-taker` };
}

/** The perpetual market in the shape the ladder takes (its filters; a 5 USDT smallest order). */
export function perpBotMarket(m: PerpMarketConfig): MarketConfig {
  return {
    symbol: m.symbol,
    base: m.base,
    quote: m.quote,
    priceDecimals: m.priceDecimals,
    qtyDecimals: m.qtyDecimals,
    tickSize: m.tickSize,
    stepSize: m.stepSize,
    minQty: m.minQty,
    minNotional: MIN_NOTIONAL,
    makerFeePpm: m.makerFeePpm,
    takerFeePpm: m.takerFeePpm,
    status: m.status,
  };
}

/** The perpetual venue: the market's book and open orders, the users' CONTRACT USDT (margin). */
export function perpVenue(host: EnginePort): BotVenue {
  return {
    openOrders: (userId, symbol) => host.engine.perpOpenOrders(userId, symbol),
    depth: (symbol, levels) => host.engine.perpDepth(symbol, levels),
    trading: (symbol) => host.engine.perpMarket(symbol)?.status === 'TRADING' && (host.engine.perpMarkState(symbol)?.markPrice ?? null) !== null,
    holding: (userId, asset) => {
      const b = host.engine.balance(userId, 'CONTRACT', asset);
      return b.available + b.frozen;
    },
    deposit: async (userId, asset, amount, ref) =>
      (await host.submit({ type: 'deposit', userId, asset, account: 'CONTRACT', amount, from: '@faucet', ref })).code,
    quoteOnly: true,
  };
}

/** The bot's orders through the perpetuals service: GTC limits rest, an IOC (taker) goes as a MARKET order of its quantity. */
export function perpBotOrders(contract: Pick<PerpService, 'placeOrder' | 'cancelOrder'>): BotOrders {
  return {
    place: (userId, o) =>
      contract.placeOrder(
        userId,
        o.timeInForce === 'IOC'
          ? { symbol: o.pairsName, side: o.side, orderType: 'MARKET', quantity: o.amount, clientOrderId: o.clientOrderId }
          : { symbol: o.pairsName, side: o.side, orderType: 'LIMIT', price: o.price, quantity: o.amount, clientOrderId: o.clientOrderId },
      ),
    cancel: (userId, { id }) => contract.cancelOrder(userId, { orderId: id }),
  };
}

/**
 * The price the bot quotes around: the index of the last mark tick (else the mark), a decimal string or null. Not
 * the mark itself: the mark is a median of the index-based prices and the last trade, and its basis is the book's mid
 * less the index, so a book quoted around the mark would hold the mark wherever it is (after the index jumped, the
 * mark stayed at the last trade, measured on a demo server); quoted around the index, the basis tends to 0 and the
 * mark to the index, as Binance's arbitrage keeps it.
 */
export function perpReference(host: EnginePort, m: Pick<PerpMarketConfig, 'symbol' | 'priceDecimals'>): (ts: number) => string | null {
  return () => {
    const st = host.engine.perpMarkState(m.symbol);
    const p = st?.indexPrice ?? st?.markPrice ?? null;
    return p === null ? null : formatDecimal(p, m.priceDecimals);
  };
}

/** Sets both bot users' leverage (PERP_BOT_LEVERAGE) in the market; a refusal is logged (the default leverage stays). */
export async function setBotLeverage(contract: Pick<PerpService, 'setLeverage'>, m: PerpMarketConfig, log: FastifyBaseLogger): Promise<void> {
  const ids = perpBotUserIds(m);
  for (const userId of [ids.maker, ids.taker]) {
    try {
      await contract.setLeverage(userId, { symbol: m.symbol, leverage: PERP_BOT_LEVERAGE });
    } catch (err) {
      log.warn({ err, userId, symbol: m.symbol }, 'bot leverage not set');
    }
  }
}
