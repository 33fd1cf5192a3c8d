/**
 * The market updates pushed to subscribers (the WebSocket gateway) and their listener list. A failing listener is
 * logged and does not stop the others.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kline, KlinePeriod, MarketType, Pair, PublicTrade } from '@exchange/api';

/** What the WebSocket gateway receives; `symbol` is the pairsName. */
export type MarketUpdate =
  | { kind: 'ticker'; symbol: string; type: MarketType; pair: Pair }
  | { kind: 'depth'; symbol: string; seq: number; prevSeq: number; bids: Array<[string, string]>; asks: Array<[string, string]> }
  | { kind: 'trades'; symbol: string; trades: PublicTrade[] }
  | { kind: 'kline'; symbol: string; type: MarketType; period: KlinePeriod; bar: Kline };

/** The listeners of market updates. */
export class MarketUpdates {
  private readonly listeners = new Set<(u: MarketUpdate) => void>();

  /** `log` receives the errors thrown by listeners. */
  constructor(private readonly log: FastifyBaseLogger) {}

  /** How many listeners there are (0: nothing needs to be built for publishing). */
  get size(): number {
    return this.listeners.size;
  }

  /** Hands `u` to every listener, synchronously. */
  emit(u: MarketUpdate): void {
    for (const fn of this.listeners) {
      try {
        fn(u);
      } catch (err) {
        this.log.error({ err }, 'market update listener failed');
      }
    }
  }

  /** Adds a listener; returns its unsubscribe. */
  subscribe(listener: (u: MarketUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Removes every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
