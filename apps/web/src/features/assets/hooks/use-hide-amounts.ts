/**
 * The two view toggles of the assets screens, kept for the browser session so the overview and the
 * coin detail agree: the eye (amounts hidden) and "Hide small balances". Neither is one of the spec's
 * persisted fields (section 3), so they live in sessionStorage, not localStorage.
 */
import { useCallback, useState } from 'react';

const HIDE_AMOUNTS_KEY = 'assetsHideAmounts';
const HIDE_SMALL_KEY = 'assetsHideSmall';

/** [value, set] of a boolean kept in sessionStorage under `key` ('1' / '0'), `fallback` when unset. */
function useSessionFlag(key: string, fallback: boolean): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => {
    const raw = sessionStorage.getItem(key);
    return raw === null ? fallback : raw === '1';
  });
  const set = useCallback(
    (v: boolean) => {
      sessionStorage.setItem(key, v ? '1' : '0');
      setValue(v);
    },
    [key],
  );
  return [value, set];
}

/** [hidden, toggle] of the eye toggle; amounts shown until the user hides them. */
export function useHideAmounts(): [boolean, () => void] {
  const [hidden, set] = useSessionFlag(HIDE_AMOUNTS_KEY, false);
  const toggle = useCallback(() => set(!hidden), [hidden, set]);
  return [hidden, toggle];
}

/**
 * [hideSmall, set] of "Hide small balances": on until the user unticks it, so a new account sees the
 * coins it holds rather than a page of zeros (the rule of what is small: `isSmallBalance`).
 */
export function useHideSmall(): [boolean, (v: boolean) => void] {
  return useSessionFlag(HIDE_SMALL_KEY, true);
}
