/** Light or dark console (antd's theme algorithm), kept in localStorage; the OS preference when never chosen. */
import { useSyncExternalStore } from 'react';

/** The console's themes. */
export type ConsoleTheme = 'light' | 'dark';
const KEY = 'exchange-console-theme';
const listeners = new Set<() => void>();

function initial(): ConsoleTheme {
  const s = localStorage.getItem(KEY);
  if (s === 'light' || s === 'dark') return s;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
let current: ConsoleTheme = initial();

/** Sets and remembers the theme. */
export function setTheme(t: ConsoleTheme): void {
  current = t;
  localStorage.setItem(KEY, t);
  listeners.forEach((l) => l());
}

/** The theme, re-rendering the caller when it changes. */
export function useTheme(): ConsoleTheme {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
