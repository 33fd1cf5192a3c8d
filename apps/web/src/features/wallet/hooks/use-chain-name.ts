/**
 * The display name of a network for records and details, from the coin catalogue (getCoins): a record carries only the
 * network code ("BSC"), the screens name it as the chooser does ("BNB Smart Chain (BEP20)").
 */
import type { WalletCoin } from '@exchange/api';
import { useCoins } from '../api/get-coins';

/** The name of network `chain` of `coin` in `coins`, else of `chain` under any coin, else the code itself. */
export function chainNameOf(coins: readonly WalletCoin[] | undefined, coin: string, chain: string): string {
  const all = coins ?? [];
  const own = all.find((c) => c.coin === coin)?.chains.find((c) => c.chain === chain);
  return (own ?? all.flatMap((c) => c.chains).find((c) => c.chain === chain))?.chainName ?? chain;
}

/** chainNameOf over the cached catalogue (the code until it has loaded). */
export function useChainName(coin: string, chain: string): string {
  const coins = useCoins();
  return chainNameOf(coins.data, coin, chain);
}
