/**
 * The four accounts of spec section 3 and what each holds: the funding account (ASSETS, where deposits land and
 * withdrawals leave) and spot hold every coin; the contract (USDT-M futures) and fiat/OTC accounts hold USDT only.
 */
import type { Assets, WalletAccount } from '@exchange/api';
import { compareDecimal } from '../../../shared/format';

/** The accounts in the order of the assets page. */
export const WALLET_ACCOUNTS: readonly WalletAccount[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];

/** True when `account` can hold `coin`. */
export function accountHolds(account: WalletAccount, coin: string): boolean {
  return account === 'ASSETS' || account === 'SPOT' || coin === 'USDT';
}

/**
 * The account a withdrawal is paid from: the funding account (the server's withdraw info `available` and the
 * withdrawal's hold are of ASSETS, apps/server/src/domains/wallet/wallet.service.ts). Binance likewise pays
 * withdrawals from the funding wallet and offers a transfer beside the available amount.
 */
export const WITHDRAW_ACCOUNT: WalletAccount = 'ASSETS';

/** One of the user's other accounts holding a coin: the account and its available balance (decimal string). */
export interface AccountBalance {
  account: WalletAccount;
  available: string;
}

/**
 * The accounts other than `paying` that can hold `coin`, in the assets page's order, each with its available balance
 * of `coin` ('0' when not listed). Empty while the balances are unknown.
 */
export function otherBalances(assets: Assets | undefined, paying: WalletAccount, coin: string): AccountBalance[] {
  if (!assets) return [];
  return WALLET_ACCOUNTS.filter((a) => a !== paying && accountHolds(a, coin)).map((account) => ({
    account,
    available: assets.accounts.find((x) => x.type === account)?.items.find((i) => i.coin === coin)?.available ?? '0',
  }));
}

/**
 * The transfer that tops up the paying account, opened from the withdraw form: coin `coin` from the other account
 * holding the most of it (Spot when none holds any) into `paying`, returning to `returnTo` when done.
 * Answers the /assets/transfer URL with its query (coin, from, to, returnTo).
 */
export function topUpTransferUrl(others: readonly AccountBalance[], paying: WalletAccount, coin: string, returnTo: string): string {
  let from: AccountBalance | undefined;
  for (const o of others) if (compareDecimal(o.available, '0') > 0 && (!from || compareDecimal(o.available, from.available) > 0)) from = o;
  const q = new URLSearchParams({ coin, from: from?.account ?? (paying === 'SPOT' ? 'ASSETS' : 'SPOT'), to: paying, returnTo });
  return `/assets/transfer?${q.toString()}`;
}

/**
 * A return path the transfer form may go back to: an app path inside the wallet's withdraw screen only (never
 * another origin, nor an arbitrary page), else null.
 */
export function safeReturnTo(v: string | null): string | null {
  return v !== null && v.startsWith('/assets/withdrawCoin?') && !v.includes('//') ? v : null;
}
