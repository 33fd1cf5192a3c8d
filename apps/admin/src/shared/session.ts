/**
 * The operator's console session: the token (header x-admin-token) and the operator, kept in sessionStorage (the tab's
 * life: a console session is short anyway, 30 minutes idle, 8 hours at most, and never outlives the browser tab).
 * `useSession` re-renders on change; `clearSession` is called on logout and on any 401 answer.
 */
import { useSyncExternalStore } from 'react';
import type { Operator } from '@exchange/api';

const KEY = 'exchange-console-session';

/** A live session as the login answered it. */
export interface ConsoleSession {
  token: string;
  operator: Operator;
}

const listeners = new Set<() => void>();
let current: ConsoleSession | null = read();

function read(): ConsoleSession | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as ConsoleSession) : null;
  } catch {
    return null;
  }
}

/** The session, or null when logged out. */
export function getSession(): ConsoleSession | null {
  return current;
}

/** Stores the session of a successful login. */
export function setSession(s: ConsoleSession): void {
  current = s;
  sessionStorage.setItem(KEY, JSON.stringify(s));
  listeners.forEach((l) => l());
}

/** Forgets the session (logout, or the server answered 401). */
export function clearSession(): void {
  current = null;
  sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

/** The session, re-rendering the caller when it changes. */
export function useSession(): ConsoleSession | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
