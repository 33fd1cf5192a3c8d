/**
 * Pure view rules of the assets screens: the accounts in display order (deposit/withdraw = ASSETS,
 * spot, contract, fiat/OTC, other), the "hide small balances" filter, sorting coins by value, and
 * masking amounts when the eye toggle hides them. Values are decimal strings compared exactly.
 */
import type { AccountType, AssetAccount, AssetItem } from '@exchange/api';
import { compareDecimal, isDecimal } from '../../../shared/format';

/** Account tabs of spec section 2 ("Assets overview"): the four API accounts plus 'OTHER'. */
export type AccountTab = AccountType | 'OTHER';

/** Display order of the account tabs. */
export const ACCOUNT_TABS: readonly AccountTab[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC', 'OTHER'];

/**
 * Below this value in USDT a balance counts as small and is hidden by the toggle: 1 USDT, the
 * threshold of Binance's "Hide assets < 1 USD" (the spec names the toggle but no threshold; USDT is
 * our dollar). Zero balances are always small, whatever their coin's price.
 */
export const SMALL_BALANCE_USDT = '1';

/** Placeholder of a hidden amount. */
export const HIDDEN_AMOUNT = '****';

const dec = (s: string) => (isDecimal(s) ? s : '0');

/** True when the item is worth less than SMALL_BALANCE_USDT (or nothing at all). */
export function isSmallBalance(item: AssetItem): boolean {
  if (compareDecimal(dec(item.current), '0') <= 0) return true;
  return compareDecimal(dec(item.convertedUsdt), SMALL_BALANCE_USDT) < 0;
}

/**
 * Items to show: sorted by value (convertedUsdt, then amount, descending; then coin name), without
 * small balances when `hideSmall`.
 */
export function visibleItems(items: readonly AssetItem[], hideSmall: boolean): AssetItem[] {
  return items
    .filter((i) => !hideSmall || !isSmallBalance(i))
    .sort(
      (a, b) =>
        compareDecimal(dec(b.convertedUsdt), dec(a.convertedUsdt)) ||
        compareDecimal(dec(b.current), dec(a.current)) ||
        (a.coin < b.coin ? -1 : a.coin > b.coin ? 1 : 0),
    );
}

/**
 * The account of `tab`, or an empty one. OTHER is the spec's "other" bucket: coins locked in mortgage (the
 * fixed-term savings of /mortgage); until the overview lists them it is empty (totals '0'), and says so.
 */
export function accountOf(accounts: readonly AssetAccount[], tab: AccountTab): AssetAccount {
  const hit = tab === 'OTHER' ? undefined : accounts.find((a) => a.type === tab);
  return hit ?? { type: tab === 'OTHER' ? 'ASSETS' : tab, totalUsdt: '0', totalCny: '0', items: [] };
}

/** `text`, or the mask when amounts are hidden. */
export function masked(text: string, hidden: boolean): string {
  return hidden ? HIDDEN_AMOUNT : text;
}
