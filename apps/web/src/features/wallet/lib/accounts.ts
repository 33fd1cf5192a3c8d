/**
 * The four accounts of spec section 3 and what each holds: the funding account (ASSETS, where deposits land and
 * withdrawals leave) and spot hold every coin; the contract (USDT-M futures) and fiat/OTC accounts hold USDT only.
 */
import type { WalletAccount } from '@exchange/api';

/** The accounts in the order of the assets page. */
export const WALLET_ACCOUNTS: readonly WalletAccount[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];

/** True when `account` can hold `coin`. */
export function accountHolds(account: WalletAccount, coin: string): boolean {
  return account === 'ASSETS' || account === 'SPOT' || coin === 'USDT';
}
