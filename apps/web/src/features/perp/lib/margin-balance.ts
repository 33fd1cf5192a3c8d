/**
 * The contract account's margin balance as the screen shows it, live: Binance's margin balance = wallet balance +
 * unrealized PnL (USDⓈ-M futures glossary). The account the server sends (getAccount, 'contractAccount' pushes)
 * carries walletBalance and marginBalance as of when it was read; the positions on screen move with every mark price
 * (atMark). Summing the wallet balance with those live positions' unrealized PnL keeps the margin balance with the
 * PnL the user sees, instead of a wallet-only figure while the mark moves. Exact decimal strings (no float).
 */
import type { ContractAccount, ContractMarket, ContractPosition } from '@exchange/api';
import { addDecimal, isDecimal } from '../../../shared/format';
import { atMark } from './contract-form';

/**
 * Wallet balance plus every position's unrealized PnL at the live mark price of its market (`marks`, symbol -> mark;
 * a market without one keeps the position's own figure), USDT. The server's marginBalance when the positions are not
 * known yet (`positions` undefined) or the wallet balance is not a decimal.
 */
export function liveMarginBalance(
  account: Pick<ContractAccount, 'walletBalance' | 'marginBalance'>,
  positions: readonly ContractPosition[] | undefined,
  marks: ReadonlyMap<string, string>,
): string {
  if (!positions || !isDecimal(account.walletBalance)) return account.marginBalance;
  let total = account.walletBalance;
  for (const p of positions) {
    const mark = marks.get(p.symbol);
    const live = mark ? atMark(p, mark) : p;
    if (isDecimal(live.unrealizedPnl)) total = addDecimal(total, live.unrealizedPnl);
  }
  return total;
}

/** Mark prices by symbol of `markets` (those that have one). */
export function marksOf(markets: readonly Pick<ContractMarket, 'symbol' | 'markPrice'>[]): Map<string, string> {
  return new Map(markets.filter((m) => !!m.markPrice).map((m) => [m.symbol, m.markPrice]));
}
