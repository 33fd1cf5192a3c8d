/** Opening a pair from the home lists: the store's spot pair follows (spec section 3), then its detail page. */
import { useNavigate } from 'react-router';
import type { Pair } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { pairDetailPath } from '../components/pair-link';

/** Returns `(pair) => void` that stores `pair.pairsName` as the current pair and navigates to its detail page. */
export function useOpenPair() {
  const navigate = useNavigate();
  const setPairsName = useAppStore((s) => s.setPairsName);
  return (p: Pick<Pair, 'pairsName' | 'type'>) => {
    setPairsName(p.pairsName);
    navigate(pairDetailPath(p.pairsName, p.type));
  };
}
