/**
 * The coin and network a deposit or withdraw screen shows: the coin catalogue (getCoins), the coin's networks, and the
 * selected one: the query's `chain` when the coin has it, else the first available. Choosing a network writes it into
 * the query (replacing the history entry), so a reload or a link keeps the network.
 */
import { useSearchParams } from 'react-router';
import type { CoinChain } from '@exchange/api';
import { useCoins } from '../api/get-coins';

/** The network to show first: the one in the query if the coin has it, else the first available, else the first. */
export function defaultChain(chains: readonly CoinChain[], wanted: string | null): string {
  return (chains.find((c) => c.chain === wanted) ?? chains.find((c) => c.available) ?? chains[0])?.chain ?? '';
}

/** `coins` (the query), the coin's `info` and `chains`, the `selected` network, and `setChain` for the chooser. */
export function useCoinChain(coin: string) {
  const coins = useCoins();
  const [params, setParams] = useSearchParams();
  const info = coins.data?.find((c) => c.coin === coin);
  const chains = info?.chains ?? [];
  const selected = chains.find((c) => c.chain === defaultChain(chains, params.get('chain')));
  const setChain = (chain: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set('chain', chain);
        return next;
      },
      { replace: true },
    );
  return { coins, info, chains, selected, setChain };
}
