/**
 * listenKeys of the user data streams: spot POST/PUT/DELETE /api/v3/userDataStream and futures
 * /fapi/v1/listenKey (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/user-data-stream-endpoints-deprecated,
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams). A key is valid for
 * LISTEN_KEY_TTL_MS (60 minutes) after its creation or last keepalive; creating a key while the user has a valid
 * one of the same namespace returns that key and extends it, as Binance does. Expired keys are swept by `sweep`
 * (the hub calls it on a timer; tests call it with their clock), and each expiry is told to the listener.
 *
 * Kept in this gateway's memory: a key is known to the gateway that created it (scale-out: a load balancer must send
 * a user's REST and stream connections to one gateway, or the key is refused elsewhere; docs/binance-api.md).
 */
import { randomBytes } from 'node:crypto';
import type { StreamMarket } from './streams.names';

/** Validity of a listenKey after its creation or last keepalive (Binance: 60 minutes). */
export const LISTEN_KEY_TTL_MS = 60 * 60_000;

/** One listenKey. */
export interface ListenKey {
  key: string;
  userId: string;
  market: StreamMarket;
  /** Clock ms after which the key is expired. */
  expiresAt: number;
}

/** The listenKeys of a gateway. */
export interface ListenKeys {
  /** Creates the user's key of `market`, or returns and extends the valid one. */
  create(userId: string, market: StreamMarket): ListenKey;
  /** Extends `key` of `userId` and `market`; false when there is no such valid key (Binance -1125). */
  keepalive(userId: string, market: StreamMarket, key: string): boolean;
  /** Closes `key` of `userId` and `market` now (listeners told); false when there is no such valid key. */
  close(userId: string, market: StreamMarket, key: string): boolean;
  /** The valid key `key` of `market`, or undefined. */
  get(key: string, market: StreamMarket): ListenKey | undefined;
  /** The user's valid key of `market`, or undefined (the futures keepalive and close name no key). */
  ofUser(userId: string, market: StreamMarket): ListenKey | undefined;
  /** Expires every key past its time; returns how many. */
  sweep(): number;
  /** Listens to expiries and closes; returns the unsubscribe. */
  onEnd(listener: (k: ListenKey, reason: 'expired' | 'closed') => void): () => void;
}

/** Creates the store over `now` (ms clock; Date.now by default) and a key time-to-live (default LISTEN_KEY_TTL_MS). */
export function createListenKeys(now: () => number = Date.now, ttlMs = LISTEN_KEY_TTL_MS): ListenKeys {
  const byKey = new Map<string, ListenKey>();
  const byUser = new Map<string, ListenKey>(); // `${market}|${userId}`
  const listeners = new Set<(k: ListenKey, reason: 'expired' | 'closed') => void>();
  const valid = (k: ListenKey | undefined): k is ListenKey => k !== undefined && k.expiresAt > now();
  const end = (k: ListenKey, reason: 'expired' | 'closed') => {
    byKey.delete(k.key);
    if (byUser.get(`${k.market}|${k.userId}`) === k) byUser.delete(`${k.market}|${k.userId}`);
    for (const fn of listeners) fn(k, reason);
  };
  const sweep = () => {
    const t = now();
    let n = 0;
    for (const k of [...byKey.values()]) {
      if (k.expiresAt <= t) {
        end(k, 'expired');
        n++;
      }
    }
    return n;
  };
  return {
    create(userId, market) {
      const held = byUser.get(`${market}|${userId}`);
      if (valid(held)) {
        held.expiresAt = now() + ttlMs;
        return held;
      }
      if (held) end(held, 'expired');
      // 60 characters of [A-Za-z0-9] like Binance's keys.
      const key = randomBytes(45)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .padEnd(60, '0')
        .slice(0, 60);
      const k: ListenKey = { key, userId, market, expiresAt: now() + ttlMs };
      byKey.set(key, k);
      byUser.set(`${market}|${userId}`, k);
      return k;
    },
    keepalive(userId, market, key) {
      const k = byKey.get(key);
      if (!valid(k) || k.userId !== userId || k.market !== market) return false;
      k.expiresAt = now() + ttlMs;
      return true;
    },
    close(userId, market, key) {
      const k = byKey.get(key);
      if (!valid(k) || k.userId !== userId || k.market !== market) return false;
      end(k, 'closed');
      return true;
    },
    get(key, market) {
      const k = byKey.get(key);
      return valid(k) && k.market === market ? k : undefined;
    },
    ofUser(userId, market) {
      const k = byUser.get(`${market}|${userId}`);
      return valid(k) ? k : undefined;
    },
    sweep,
    onEnd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
