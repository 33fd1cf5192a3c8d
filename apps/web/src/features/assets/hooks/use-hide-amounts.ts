/**
 * Whether amounts are hidden (eye toggle), kept for the browser session so the overview and the
 * coin detail agree. Not one of the spec's persisted fields, so it lives in sessionStorage.
 */
import { useCallback, useState } from 'react';

const KEY = 'assetsHideAmounts';

/** [hidden, toggle]. */
export function useHideAmounts(): [boolean, () => void] {
  const [hidden, setHidden] = useState(() => sessionStorage.getItem(KEY) === '1');
  const toggle = useCallback(() => {
    setHidden((h) => {
      sessionStorage.setItem(KEY, h ? '0' : '1');
      return !h;
    });
  }, []);
  return [hidden, toggle];
}
