/**
 * Request weights and rate limits of the Binance-compatible API, as Binance documents them
 * (https://developers.binance.com/docs/binance-spot-api-docs/rest-api, "LIMITS"):
 * - Every route declares `config.binance.weight`; the weight is charged per IP (fixed one-minute windows aligned to
 *   the minute) before the request is read further, and per API key once the key is known. Every answer carries
 *   `X-MBX-USED-WEIGHT-1M`: the IP's weight used in the current minute. Over BINANCE_WEIGHT_PER_MIN: HTTP 429, -1003,
 *   `Retry-After` = seconds to the end of the minute.
 * - An IP that keeps sending after 429s (BAN_AFTER_REFUSALS refusals in one minute) is banned: HTTP 418, -1003 "Way
 *   too much request weight used; IP banned until <ms>.", `Retry-After` = seconds to the ban's end. Bans scale for
 *   repeat offenders, 2 minutes doubling up to 3 days (Binance: "from 2 minutes to 3 days").
 * - Routes marked `order` count new orders per account (Binance: "tracked for each account") in fixed 10 s and
 *   day windows, one per request or what the route's config says (a futures batch: binance.auth.ts OrderCount);
 *   answers carry `X-MBX-ORDER-COUNT-10S` and `X-MBX-ORDER-COUNT-1D`; over BINANCE_ORDERS_PER_10S or
 *   BINANCE_ORDERS_PER_DAY: HTTP 429, -1015, `Retry-After`.
 * The counts live in the process (like the app's budgets, platform/rate-limit/rate-limits.ts): with several gateways a client
 * gets one budget per gateway. `binanceRateLimits` gives exchangeInfo's `rateLimits` array from the same config.
 */
import type { FastifyReply } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import type { Config } from '../../platform/config/env';
import { BinanceError } from './binance.errors';
import { FixedWindowCounter } from '../../platform/rate-limit/fixed-window';
import type { OrderCount } from './binance.auth';

/** What a single new order counts: one in each window. */
const ONE_ORDER: OrderCount = { tenSeconds: 1, day: 1 };

/** One entry of exchangeInfo's `rateLimits` (Binance's enums: rateLimitType, interval). */
export interface BinanceRateLimit {
  rateLimitType: 'REQUEST_WEIGHT' | 'ORDERS' | 'RAW_REQUESTS';
  interval: 'SECOND' | 'MINUTE' | 'DAY';
  intervalNum: number;
  limit: number;
}

/** The limits this server applies, for exchangeInfo's `rateLimits` (spot and futures alike); a limit of 0 (unlimited) is left out. */
export function binanceRateLimits(config: Pick<Config, 'binanceWeightPerMin' | 'binanceOrdersPer10s' | 'binanceOrdersPerDay'>): BinanceRateLimit[] {
  const out: BinanceRateLimit[] = [];
  if (config.binanceWeightPerMin > 0) out.push({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: config.binanceWeightPerMin });
  if (config.binanceOrdersPer10s > 0) out.push({ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: config.binanceOrdersPer10s });
  if (config.binanceOrdersPerDay > 0) out.push({ rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: config.binanceOrdersPerDay });
  return out;
}

const MINUTE_MS = 60_000;
const TEN_S_MS = 10_000;
const DAY_MS = 86_400_000;
/** Refusals (429) of one IP within one minute after which it is banned. */
export const BAN_AFTER_REFUSALS = 10;
/** The first ban, and the longest (Binance: from 2 minutes to 3 days). */
export const FIRST_BAN_MS = 2 * MINUTE_MS;
export const MAX_BAN_MS = 3 * DAY_MS;
/** Offences are forgotten a day after the last ban ended. */
const OFFENCE_MEMORY_MS = DAY_MS;
/** Most clients (IPs, keys, accounts) remembered per counter; the oldest goes first. */
const MAX_CLIENTS = 50_000;

/**
 * The weight charged for an endpoint Binance weighs per account (UID) rather than per IP: Binance's UID budget is 30
 * times its IP budget (180000 against 6000 a minute), so a UID weight is charged here as its share of our one budget,
 * rounded up (900 -> 30, 18000 -> 600): a client can call it as often per minute as on Binance.
 */
export function uidWeight(binanceUidWeight: number): number {
  return Math.ceil(binanceUidWeight / 30);
}

/** The limiter of one Binance scope. Each method throws a BinanceError (429 / 418) when a limit is passed. */
export interface BinanceLimiter {
  /** Charges `weight` to the request's IP and sets X-MBX-USED-WEIGHT-1M; 418 while banned, 429 over the limit. */
  chargeIp(ip: string, weight: number, reply: FastifyReply): void;
  /** Charges `weight` to an API key (our key id); 429 -1003 over the limit. */
  chargeKey(keyId: string, weight: number, reply: FastifyReply): void;
  /**
   * Counts the new orders of a request of an account (`count`, one in each window by default) and sets
   * X-MBX-ORDER-COUNT-10S / -1D; 429 -1015, nothing counted, when a count would pass its limit.
   */
  countOrder(userId: string, reply: FastifyReply, count?: OrderCount): void;
}

/**
 * GET /api/v3/depth's weight by `limit` (Binance spot REST API, "Order book": 1-100: 5, 101-500: 25, 501-1000: 50,
 * 1001-5000: 250). A limit that is not a whole number weighs as the default (100); the route then refuses it.
 */
export function spotDepthWeight(query: Record<string, unknown>): number {
  const limit = limitOf(query, 100);
  return limit <= 100 ? 5 : limit <= 500 ? 25 : limit <= 1000 ? 50 : 250;
}

/**
 * GET /fapi/v1/depth's weight by `limit` (Binance USDⓈ-M futures, "Order Book": 5, 10, 20, 50: 2; 100: 5; 500: 10;
 * 1000: 20). A limit that is not a whole number weighs as the default (500); a limit outside the list is refused.
 */
export function futuresDepthWeight(query: Record<string, unknown>): number {
  const limit = limitOf(query, 500);
  return limit <= 50 ? 2 : limit <= 100 ? 5 : limit <= 500 ? 10 : 20;
}

function limitOf(query: Record<string, unknown>, fallback: number): number {
  const v = query.limit;
  return typeof v === 'string' && /^[0-9]{1,9}$/.test(v) ? Number.parseInt(v, 10) : fallback;
}

/** Builds the limiter over the configured limits and the server's clock (`now`, Unix ms). */
export function createBinanceLimiter(
  config: Pick<Config, 'binanceWeightPerMin' | 'binanceOrdersPer10s' | 'binanceOrdersPerDay'>,
  now: () => number,
): BinanceLimiter {
  const ipWeight = new FixedWindowCounter(MINUTE_MS, 'epoch', MAX_CLIENTS);
  const keyWeight = new FixedWindowCounter(MINUTE_MS, 'epoch', MAX_CLIENTS);
  const refusals = new FixedWindowCounter(MINUTE_MS, 'epoch', MAX_CLIENTS);
  const orders10s = new FixedWindowCounter(TEN_S_MS, 'epoch', MAX_CLIENTS);
  const ordersDay = new FixedWindowCounter(DAY_MS, 'epoch', MAX_CLIENTS);
  const bans = new Map<string, { until: number; offences: number }>();
  const limit = config.binanceWeightPerMin;

  function overWeight(reply: FastifyReply, t: number): BinanceError {
    void reply.header('retry-after', ipWeight.retryAfterS('', t));
    return new BinanceError(
      -1003,
      `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`,
      429,
    );
  }

  function banned(reply: FastifyReply, until: number, t: number): BinanceError {
    void reply.header('retry-after', Math.max(1, Math.ceil((until - t) / 1000)));
    return new BinanceError(
      -1003,
      `Way too much request weight used; IP banned until ${until}. Please use WebSocket Streams for live updates to avoid bans.`,
      418,
    );
  }

  return {
    chargeIp(rawIp, weight, reply) {
      const t = now();
      const ip = normalizeIP(rawIp);
      const ban = bans.get(ip);
      if (ban !== undefined && t < ban.until) throw banned(reply, ban.until, t);
      if (ban !== undefined && t - ban.until > OFFENCE_MEMORY_MS) bans.delete(ip);
      const before = ipWeight.add(ip, 0, t);
      if (limit > 0 && before + weight > limit) {
        void reply.header('x-mbx-used-weight-1m', before);
        if (refusals.add(ip, 1, t) > BAN_AFTER_REFUSALS) {
          const offences = (bans.get(ip)?.offences ?? 0) + 1;
          const until = t + Math.min(MAX_BAN_MS, FIRST_BAN_MS * 2 ** (offences - 1));
          if (bans.size >= MAX_CLIENTS) bans.delete(bans.keys().next().value as string);
          bans.set(ip, { until, offences });
          throw banned(reply, until, t);
        }
        throw overWeight(reply, t);
      }
      void reply.header('x-mbx-used-weight-1m', ipWeight.add(ip, weight, t));
    },

    chargeKey(keyId, weight, reply) {
      if (limit <= 0) return;
      const t = now();
      if (keyWeight.add(keyId, 0, t) + weight > limit) throw overWeight(reply, t);
      keyWeight.add(keyId, weight, t);
    },

    countOrder(userId, reply, count = ONE_ORDER) {
      const t = now();
      const per10s = config.binanceOrdersPer10s;
      const perDay = config.binanceOrdersPerDay;
      const n10 = orders10s.add(userId, 0, t);
      const nDay = ordersDay.add(userId, 0, t);
      // A request whose count would pass a limit is refused whole, as a request whose weight would pass the weight limit.
      const over10 = per10s > 0 && n10 + count.tenSeconds > per10s;
      const overDay = perDay > 0 && nDay + count.day > perDay;
      if (over10 || overDay) {
        void reply.header('x-mbx-order-count-10s', n10).header('x-mbx-order-count-1d', nDay);
        void reply.header('retry-after', over10 ? orders10s.retryAfterS(userId, t) : ordersDay.retryAfterS(userId, t));
        throw new BinanceError(
          -1015,
          over10
            ? `Too many new orders; current limit is ${per10s} orders per 10 SECOND.`
            : `Too many new orders; current limit is ${perDay} orders per 1 DAY.`,
          429,
        );
      }
      void reply
        .header('x-mbx-order-count-10s', orders10s.add(userId, count.tenSeconds, t))
        .header('x-mbx-order-count-1d', ordersDay.add(userId, count.day, t));
    },
  };
}
