/**
 * The hot-wallet view's lines, from the server's rows (one per network and coin): a coin carried on one network is one
 * line; a coin carried on several (USDT on Ethereum, BNB Smart Chain, Arbitrum One and Polygon) is one line per network
 * followed by its total over the networks: hot wallet, deposit addresses and on chain added up, against the coin's
 * liabilities, which every row of the coin carries whole (the engine keeps one balance per coin, whichever network
 * it came by), so they are taken once, never added. Sums are exact on the wire's decimal strings (coverage.ts's
 * 18-place integers), never floating point. A network whose balance the server could not read ('') is left out of the
 * sums and named in `unknown`: the total and its coverage are then a lower bound.
 */
import { decimalsOf, formatDecimal, toFixedDecimal } from '@exchange/money';
import type { HotWalletRow } from './api/types';
import { coveragePercent, decimalUnits, UNITS_SCALE } from './coverage';

/** One line of the table. Amounts are decimal strings in coin units ('' = unknown or not shown on this line). */
export interface HotWalletLine {
  key: string;
  /** 'network': one network of a multi-network coin; 'total': that coin over its networks; 'single': a coin on one network */
  kind: 'network' | 'total' | 'single';
  coin: string;
  /** the network code ('' on a total line) */
  chain: string;
  /** networks of the coin (on a total line) */
  networks: number;
  hotWalletAddress: string;
  hotWallet: string;
  depositAddresses: string;
  /** hot wallet + deposit addresses */
  onChain: string;
  /** the coin's liabilities, on 'total' and 'single' lines only */
  liabilities: string;
  /** onChain / liabilities ("100.00%"), on 'total' and 'single' lines only */
  coverage: string;
  /** the networks whose balances are unknown and left out of a total */
  unknown: string[];
}

/**
 * An 18-place integer of decimalUnits as a decimal string without trailing zeros ("1234.5", "0"): `formatDecimal`,
 * then cut to the places that are not zero (exact).
 */
export function unitsToDecimal(units: bigint): string {
  const s = formatDecimal(units, UNITS_SCALE);
  return toFixedDecimal(s, decimalsOf(s), 'down');
}

/** The exact sum of decimal strings; '' when any is not a decimal (unknown). */
export function sumDecimals(values: readonly string[]): string {
  let total = 0n;
  for (const v of values) {
    const u = decimalUnits(v);
    if (u === null) return '';
    total += u;
  }
  return unitsToDecimal(total);
}

/** The known figures of `values` added up (unknown ones left out), '' when none is known. */
function sumKnown(values: readonly string[]): string {
  const known = values.filter((v) => decimalUnits(v) !== null);
  return known.length === 0 ? '' : sumDecimals(known);
}

/** The lines of the view, coins in the order of their first row, networks in the server's order. */
export function hotWalletLines(rows: readonly HotWalletRow[]): HotWalletLine[] {
  const byCoin = new Map<string, HotWalletRow[]>();
  for (const r of rows) byCoin.set(r.coin, [...(byCoin.get(r.coin) ?? []), r]);
  const lines: HotWalletLine[] = [];
  for (const [coin, list] of byCoin) {
    const liabilities = list[0]!.liabilities;
    const networkLines = list.map((r): HotWalletLine => {
      const onChain = sumDecimals([r.hotWallet, r.depositAddresses]);
      const single = list.length === 1;
      return {
        key: `${r.chain}:${coin}`,
        kind: single ? 'single' : 'network',
        coin,
        chain: r.chain,
        networks: 1,
        hotWalletAddress: r.hotWalletAddress,
        hotWallet: r.hotWallet,
        depositAddresses: r.depositAddresses,
        onChain,
        liabilities: single ? liabilities : '',
        coverage: single ? coveragePercent(r.hotWallet, r.depositAddresses, liabilities) : '',
        unknown: single && onChain === '' ? [r.chain] : [],
      };
    });
    lines.push(...networkLines);
    if (list.length > 1) {
      const hotWallet = sumKnown(list.map((r) => r.hotWallet));
      const depositAddresses = sumKnown(list.map((r) => r.depositAddresses));
      const unknown = list.filter((r) => decimalUnits(r.hotWallet) === null || decimalUnits(r.depositAddresses) === null).map((r) => r.chain);
      lines.push({
        key: `total:${coin}`,
        kind: 'total',
        coin,
        chain: '',
        networks: list.length,
        hotWalletAddress: '',
        hotWallet,
        depositAddresses,
        onChain: sumKnown([hotWallet, depositAddresses]),
        liabilities,
        coverage: unknown.length === list.length ? '' : coveragePercent(hotWallet || '0', depositAddresses || '0', liabilities),
        unknown,
      });
    }
  }
  return lines;
}
