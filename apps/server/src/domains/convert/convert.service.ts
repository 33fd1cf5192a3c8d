/**
 * Convert, server side (route /exchange; packages/api earn.ts convert part; the engine's walk and guard:
 * packages/core spot/convert.ts). One coin to another through the one spot market that joins them (X/USDT: X -> USDT
 * sells X, USDT -> X buys X with USDT); coins without a common market (e.g. BTC -> ETH) are refused
 * (convert_pair_invalid): two legs through USDT would need two guards, left out for now. The user's SPOT account pays
 * and receives, as for any spot order.
 *
 * quote: applies the filters the order will meet (convert.filters.ts: the market's status, step, minimum quantity and
 * minimum order value as one minimum in the coin paid, refused as convert_below_minimum naming it; open orders, a
 * frozen account), walks the book now (the engine's convertPreview: the same fills, fees and rounding as the order),
 * stores the quote (convert_quotes) with the amount received, guaranteed for CONVERT_QUOTE_TTL_MS (10 s). confirm:
 * submits the engine's `convert` command with that amount as `minReceive` and the quote's expiry: the engine refuses
 * an expired quote (convert_quote_expired) and a book that moved below the quote (convert_slippage) in the same
 * command that would place the MARKET IOC order, so nothing changes when it refuses. The quote id is the order's
 * client order id: confirming twice converts once.
 */
import crypto from 'node:crypto';
import { formatDecimal, MAX_OPEN_ORDERS_PER_MARKET, tryParseDecimal, type EngineApi, type MarketConfig } from '@exchange/core';
import { CONVERT_QUOTE_TTL_MS, type ConvertPairs, type ConvertQuote, type ConvertQuoteBody, type ConvertResult } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { plainDecimal } from '../../platform/shared/order-fields';
import { convertMarket, minimumFrom, type ConvertMarket } from './convert.filters';
import { createConvertRepository } from './convert.repository';
import { rejectParams } from '../../platform/shared/market-scales';

/** The convert service (see the file comment). Every method throws AppError with the user's message code. */
export interface ConvertService {
  pairs(): ConvertPairs;
  quote(userId: string, body: ConvertQuoteBody): Promise<ConvertQuote>;
  confirm(userId: string, quoteId: string): Promise<ConvertResult>;
}

/** Codes of the engine the user may see as they are; others become validation_failed. */
const USER_CODES: ReadonlySet<string> = new Set([
  'convert_quote_expired',
  'convert_slippage',
  'insufficient_balance',
  'account_frozen',
  'market_halted',
  'no_liquidity',
  'quantity_not_on_step',
  'quantity_below_minimum',
  'notional_below_minimum',
  'too_many_open_orders',
  'amount_invalid',
]);

/** Bid levels read first for a SELL's minimum (more, ten times as many each round, only when these fall short). */
const MIN_DEPTH_LEVELS = 20;

/** The fee rate ppm as a percent text with 2 decimals at least: 2000 -> "0.20". */
function feeText(ppm: number): string {
  const t = formatDecimal(BigInt(ppm), 4).replace(/0{1,2}$/, '');
  return t;
}

/** Builds the convert service over the engine port, the database and the process clock. */
export function createConvertService(deps: { db: Db; host: EnginePort; now: () => number }): ConvertService {
  const { host } = deps;
  const engine: EngineApi = host.engine;
  const repo = createConvertRepository(deps.db);
  const scaleOf = (coin: string) => engine.asset(coin)?.scale ?? 8;
  const pow = (n: number) => 10n ** BigInt(n);
  let lastPrune = 0;

  /** The market joining `from` and `to` and the side of the order, or convert_pair_invalid. */
  function route(from: string, to: string): { m: MarketConfig; side: 'BUY' | 'SELL' } {
    if (from !== to) {
      for (const m of engine.markets()) {
        if (m.base === from && m.quote === to) return { m, side: 'SELL' };
        if (m.base === to && m.quote === from) return { m, side: 'BUY' };
      }
    }
    throw new AppError('convert_pair_invalid', 400, 'to');
  }
  function scales(m: MarketConfig) {
    return { market: m, quoteScale: scaleOf(m.quote), scaleOf };
  }
  function marketOf(m: MarketConfig): ConvertMarket {
    return convertMarket(m, scaleOf(m.base), scaleOf(m.quote));
  }
  /** The least amount of the coin paid the order filters take now (convert.filters.ts), or null: nothing can be sold now. */
  function minimumOf(cm: ConvertMarket, side: 'BUY' | 'SELL'): bigint | null {
    if (side === 'BUY') return minimumFrom(cm, side, []);
    for (let levels = MIN_DEPTH_LEVELS; ; levels *= 10) {
      const bids = engine.depth(cm.config.symbol, levels).bids;
      const min = minimumFrom(cm, side, bids);
      if (min !== null || bids.length < levels) return min;
    }
  }
  function rejection(code: string, m: MarketConfig): AppError {
    if (!USER_CODES.has(code)) return new AppError('validation_failed', 400);
    return new AppError(
      code as ConstructorParameters<typeof AppError>[0],
      400,
      code.startsWith('quantity') || code === 'notional_below_minimum' ? 'amount' : undefined,
      rejectParams(code, scales(m)),
    );
  }

  return {
    pairs() {
      const pairs = engine
        .markets()
        .filter((m) => m.status === 'TRADING')
        .map((m) => {
          const cm = marketOf(m);
          const minBase = minimumOf(cm, 'SELL');
          return {
            symbol: m.symbol,
            base: m.base,
            quote: m.quote,
            feeRate: feeText(m.takerFeePpm),
            baseStep: formatDecimal(m.stepSize, m.qtyDecimals),
            minQuote: formatDecimal(m.minNotional, scaleOf(m.quote)),
            minBase: minBase === null ? '' : formatDecimal(minBase, scaleOf(m.base)),
          };
        });
      const coins = [...new Set(pairs.flatMap((p) => [p.quote, p.base]))];
      return { coins, pairs };
    },

    async quote(userId, body) {
      const { m, side } = route(body.from, body.to);
      const fromScale = scaleOf(body.from);
      const toScale = scaleOf(body.to);
      const parsed = tryParseDecimal(body.amount, fromScale);
      if (!parsed.ok) throw new AppError(parsed.error === 'too_many_decimals' ? 'too_many_decimals' : 'value_too_large', 400, 'amount');
      const amount = parsed.value;
      if (amount <= 0n) throw new AppError('amount_invalid', 400, 'amount');
      // The order's filters, in the engine's order (convert.filters.ts), before the book is walked.
      if (m.status !== 'TRADING') throw new AppError('market_halted', 400);
      if (engine.user(userId)?.profile.frozen === '1') throw new AppError('account_frozen', 400);
      const cm = marketOf(m);
      if (side === 'SELL' && amount % (cm.baseMult * m.stepSize) !== 0n) throw rejection('quantity_not_on_step', m);
      const min = minimumOf(cm, side);
      // A SELL no bids can take the minimum order value of: nothing of it can be sold now.
      if (min === null) throw new AppError('convert_no_quote', 400, 'amount');
      if (amount < min) throw new AppError('convert_below_minimum', 400, 'amount', { min: plainDecimal(min, fromScale), coin: body.from });
      if (engine.openOrders(userId, m.symbol).length >= MAX_OPEN_ORDERS_PER_MARKET) throw new AppError('too_many_open_orders', 400);
      const p = engine.convertPreview(m.symbol, side, userId, amount);
      // The whole amount must be fillable now (a BUY keeps only what cannot buy one more step).
      if (!p || p.receive <= 0n || !p.complete) throw new AppError('convert_no_quote', 400, 'amount');
      if (engine.balance(userId, 'SPOT', body.from).available < amount) throw new AppError('insufficient_balance', 400, 'amount');
      const now = deps.now();
      if (now - lastPrune > 60_000) {
        lastPrune = now;
        await repo.prune(now - 3_600_000);
      }
      const id = `cv${crypto.randomBytes(12).toString('hex')}`;
      const expiresTs = now + CONVERT_QUOTE_TTL_MS;
      await repo.insert({
        id,
        userId,
        symbol: m.symbol,
        side,
        fromCoin: body.from,
        toCoin: body.to,
        amount: amount.toString(),
        receive: p.receive.toString(),
        fee: p.fee.toString(),
        createdTs: now,
        expiresTs,
      });
      // price: `to` per one `from`, before fee, 8 decimals rounded down
      const gross = p.receive + p.fee;
      const price = (gross * pow(fromScale) * pow(8)) / (p.spent * pow(toScale));
      return {
        quoteId: id,
        from: body.from,
        to: body.to,
        symbol: m.symbol,
        amount: formatDecimal(amount, fromScale),
        spend: formatDecimal(p.spent, fromScale),
        receive: formatDecimal(p.receive, toScale),
        fee: formatDecimal(p.fee, toScale),
        feeRate: feeText(m.takerFeePpm),
        price: formatDecimal(price, 8),
        expiresAt: expiresTs,
      };
    },

    async confirm(userId, quoteId) {
      const q = await repo.quote(quoteId);
      // Another user's quote is not found for the caller (no hint that it exists).
      if (!q || q.userId !== userId) throw new AppError('record_not_found', 404);
      const m = engine.market(q.symbol);
      if (!m) throw new AppError('convert_pair_invalid', 400);
      const side = q.side as 'BUY' | 'SELL';
      const r = await host.submit({
        type: 'convert',
        userId,
        symbol: q.symbol,
        side,
        amount: BigInt(q.amount),
        minReceive: BigInt(q.receive),
        expiresTs: q.expiresTs,
        clientId: q.id,
      });
      if (r.code !== 'ok') throw rejection(r.code, m);
      const o = r.order;
      if (!o) throw new AppError('record_not_found', 404);
      const baseMult = pow(scaleOf(m.base) - m.qtyDecimals);
      const fromScale = scaleOf(q.fromCoin);
      const toScale = scaleOf(q.toCoin);
      const spent = side === 'SELL' ? o.filledQty * baseMult : o.filledQuote;
      const gross = side === 'SELL' ? o.filledQuote : o.filledQty * baseMult;
      return {
        orderId: o.orderId,
        from: q.fromCoin,
        to: q.toCoin,
        spent: formatDecimal(spent, fromScale),
        received: formatDecimal(gross - o.fee, toScale),
        fee: formatDecimal(o.fee, toScale),
      };
    },
  };
}
