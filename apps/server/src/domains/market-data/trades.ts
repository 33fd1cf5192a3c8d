/**
 * The latest public trades of each spot market (newest first, TRADES_KEPT kept): filled from the engine's trade
 * events, and after a restart from the projected trades so getTrades is not empty. Prices and amounts are decimal
 * strings at the listing's decimals; trade ids are the engine's (decimal strings of a bigint).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { MarketType, PublicTrade } from '@exchange/api';
import type { TradeEvent } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { Catalogue, Listing } from './catalogue';
import { fromUnits } from '../../platform/shared/decimal';
import type { MarketDataRepository } from './market-data.repository';

/** Latest trades kept per market (getTrades max limit 200). */
const TRADES_KEPT = 200;

/** What the trade lists need. */
export interface TradeListsDeps {
  repo: MarketDataRepository;
  /** The engine host: loadRecent waits for its projector to catch up. */
  host: EnginePort;
  catalogue: Catalogue;
  log: FastifyBaseLogger;
}

/** Latest trades per spot market. */
export interface TradeLists {
  /** Adds a trade of spot listing `l` to its list and to `batch` (the trades of one engine command, newest first). */
  add(e: TradeEvent, l: Listing, batch: Map<string, PublicTrade[]>): void;
  /** Latest trades, newest first, at most `limit` ([] for contract listings). */
  latest(symbol: string, type: MarketType, limit: number): PublicTrade[];
  /**
   * Fills the lists from the projected trades, merged with trades that arrived meanwhile. Waits for the projector
   * to catch up with the recovered engine first. Failures are logged, not thrown.
   */
  loadRecent(): Promise<void>;
}

/** Trade lists, empty until trades arrive or loadRecent runs. */
export function createTradeLists(deps: TradeListsDeps): TradeLists {
  const { repo, host, catalogue, log } = deps;
  const tradeRing = new Map<string, PublicTrade[]>(); // spot symbol -> newest first

  return {
    add(e, l, batch) {
      const t: PublicTrade = {
        id: e.tradeId,
        price: fromUnits(e.price, l.priceDecimals),
        amount: fromUnits(e.quantity, l.qtyDecimals),
        side: e.takerSide,
        time: e.ts,
      };
      let ring = tradeRing.get(e.symbol);
      if (!ring) tradeRing.set(e.symbol, (ring = []));
      ring.unshift(t);
      if (ring.length > TRADES_KEPT) ring.length = TRADES_KEPT;
      let list = batch.get(e.symbol);
      if (!list) batch.set(e.symbol, (list = []));
      list.unshift(t);
    },
    latest(symbol, type, limit) {
      if (type !== 'SPOT') return [];
      return (tradeRing.get(symbol) ?? []).slice(0, limit);
    },
    async loadRecent() {
      try {
        await host.projected();
        for (const l of catalogue.all) {
          if (l.type !== 'SPOT') continue;
          const rows = await repo.recentTrades(l.symbol, TRADES_KEPT);
          const ring = tradeRing.get(l.symbol) ?? [];
          const byId = new Map(ring.map((x) => [x.id, x]));
          for (const r of rows) {
            const id = r.id.toString();
            if (byId.has(id)) continue;
            byId.set(id, {
              id,
              price: fromUnits(BigInt(r.price), l.priceDecimals),
              amount: fromUnits(BigInt(r.quantity), l.qtyDecimals),
              side: r.takerSide === 'SELL' ? 'SELL' : 'BUY',
              time: r.ts,
            });
          }
          const merged = [...byId.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)).slice(0, TRADES_KEPT);
          if (merged.length > 0) tradeRing.set(l.symbol, merged);
        }
      } catch (err) {
        log.warn({ err }, 'recent trades not loaded');
      }
    },
  };
}
