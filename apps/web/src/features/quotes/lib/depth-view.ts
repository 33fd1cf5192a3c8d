/**
 * Pure view of an order book side: the first `rows` levels with their cumulative quantity and the
 * width of the depth bar as a percentage string of the larger side's total (exact decimals).
 */
import { addDecimal, compareDecimal, divDecimal, isZeroDecimal, mulDecimal } from '../../../shared/format';

/** One displayed level: price, quantity, cumulative quantity, bar width "37.50" (percent). */
export interface DepthRowView {
  price: string;
  qty: string;
  cum: string;
  barPct: string;
}

/** Cumulative quantities of the first `rows` levels of a side (best first). */
function cumulate(levels: readonly (readonly [string, string])[], rows: number): { price: string; qty: string; cum: string }[] {
  let cum = '0';
  return levels.slice(0, rows).map(([price, qty]) => {
    cum = addDecimal(cum, qty);
    return { price, qty, cum };
  });
}

/**
 * Both sides with depth bars relative to the larger cumulative total, so the two sides compare.
 * depthView([["10","1"]], [["11","3"]], 5).asks[0].barPct === "100.00"; bids[0].barPct === "33.33".
 */
export function depthView(
  bids: readonly (readonly [string, string])[],
  asks: readonly (readonly [string, string])[],
  rows: number,
): { bids: DepthRowView[]; asks: DepthRowView[] } {
  const b = cumulate(bids, rows);
  const a = cumulate(asks, rows);
  const bTotal = b.length ? b[b.length - 1]!.cum : '0';
  const aTotal = a.length ? a[a.length - 1]!.cum : '0';
  const max = compareDecimal(bTotal, aTotal) >= 0 ? bTotal : aTotal;
  const pct = (cum: string) => (isZeroDecimal(max) ? '0.00' : divDecimal(mulDecimal(cum, '100', 8), max, 2, 'down'));
  return {
    bids: b.map((r) => ({ ...r, barPct: pct(r.cum) })),
    asks: a.map((r) => ({ ...r, barPct: pct(r.cum) })),
  };
}
