/**
 * Display parameters of an inbox message (packages/api inbox.ts INBOX_KINDS): the stored parameters carry engine
 * units (integer strings); here amounts, quantities and prices become decimal strings at their coin's or market's
 * scale, read from the engine's listing (an asset or market no longer listed falls back to 8 decimals, the stored
 * value is never lost). Exact: bigint arithmetic only, an average price rounded down.
 */
import type { Asset, MarketConfig, PerpMarketConfig } from '@exchange/core';
import { formatDecimal } from '@exchange/core';
import { averagePrice, marketScales, avgPriceOf, perpScales } from '../../platform/shared/market-scales';

/** What formatting needs from the engine. */
export interface InboxListing {
  asset(code: string): Asset | undefined;
  market(symbol: string): MarketConfig | undefined;
  perpMarket(symbol: string): PerpMarketConfig | undefined;
}

const FIAT_DECIMALS = 2;

function units(v: string | undefined): bigint {
  return v !== undefined && /^-?[0-9]{1,60}$/.test(v) ? BigInt(v) : 0n;
}

/** The display parameters of a message of `kind` with stored parameters `p`. */
export function displayParams(kind: string, p: Readonly<Record<string, string>>, l: InboxListing): Record<string, string> {
  const out: Record<string, string> = { ...p };
  const coinScale = (code: string | undefined) => (code ? (l.asset(code)?.scale ?? 8) : 8);
  switch (kind) {
    case 'DEPOSIT_CREDITED':
    case 'WITHDRAWAL_COMPLETED':
    case 'WITHDRAWAL_REJECTED':
    case 'WITHDRAWAL_FAILED': {
      const s = coinScale(p.coin);
      out.amount = formatDecimal(units(p.amount), s);
      if (p.fee !== undefined) out.fee = formatDecimal(units(p.fee), s);
      break;
    }
    case 'SPOT_FILLED': {
      const m = p.symbol ? l.market(p.symbol) : undefined;
      out.pairsName = p.symbol ?? '';
      delete out.symbol;
      if (!m) break;
      const sc = marketScales(m, (c) => l.asset(c));
      const qty = units(p.filledQty);
      const quote = units(p.filledQuote);
      out.filledQty = formatDecimal(qty, m.qtyDecimals);
      out.filledQuote = formatDecimal(quote, sc.quoteScale);
      const avg = averagePrice(quote, qty, sc);
      out.avgPrice = avg === null ? '' : formatDecimal(avg, m.priceDecimals);
      out.baseCoin = m.base;
      out.quoteCoin = m.quote;
      break;
    }
    case 'CONTRACT_FILLED': {
      const m = p.symbol ? l.perpMarket(p.symbol) : undefined;
      out.pairsName = p.symbol ?? '';
      delete out.symbol;
      if (!m) break;
      const sc = perpScales(m, l.asset(m.quote)?.scale);
      const qty = units(p.filledQty);
      const quote = units(p.filledQuote);
      out.filledQty = formatDecimal(qty, m.qtyDecimals);
      out.filledQuote = formatDecimal(quote, sc.scale);
      const avg = avgPriceOf(quote, qty, sc.mult);
      out.avgPrice = avg === null ? '' : formatDecimal(avg, m.priceDecimals);
      out.baseCoin = m.base;
      out.quoteCoin = m.quote;
      break;
    }
    case 'LIQUIDATED': {
      const m = p.symbol ? l.perpMarket(p.symbol) : undefined;
      out.pairsName = p.symbol ?? '';
      delete out.symbol;
      if (!m) break;
      out.size = formatDecimal(units(p.size), m.qtyDecimals);
      out.markPrice = formatDecimal(units(p.markPrice), m.priceDecimals);
      out.baseCoin = m.base;
      break;
    }
    default:
      if (kind.startsWith('OTC_')) {
        out.quantity = formatDecimal(units(p.quantity), coinScale(p.coin));
        out.fiatAmount = formatDecimal(units(p.fiatAmount), FIAT_DECIMALS);
      }
  }
  return out;
}
