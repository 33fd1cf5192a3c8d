/**
 * The coin and network a deposit or withdraw screen shows: the coin catalogue (getCoins), the coin's networks, and the
 * selected one (chosen by the user's tab, else the query's `chain` when the coin has it, else the first available).
 */
import { useState } from 'react';
import type { CoinChain } from '@exchange/api';
import { useCoins } from '../api/get-coins';

/** The network to show first: the one in the query if the coin has it, else the first available, else the first. */
export function defaultChain(chains: readonly CoinChain[], wanted: string | null): string {
  return (chains.find((c) => c.chain === wanted) ?? chains.find((c) => c.available) ?? chains[0])?.chain ?? '';
}

/** `coins` (the query), the coin's `info` and `chains`, the `selected` network, and `setChain` for the tabs. */
export function useCoinChain(coin: string, wantedChain: string | null) {
  const coins = useCoins();
  const info = coins.data?.find((c) => c.coin === coin);
  const [chain, setChain] = useState('');
  const chains = info?.chains ?? [];
  const selected = chains.find((c) => c.chain === chain) ?? chains.find((c) => c.chain === defaultChain(chains, wantedChain));
  return { coins, info, chains, selected, setChain };
}
