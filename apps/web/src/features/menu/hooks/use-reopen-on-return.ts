/**
 * Spec section 2: going back from personalCenter, accountCenter, setting, payment, customer or
 * about reopens the side menu. When the menu navigates to one of them it records the page it was
 * opened on; arriving back on that page from one of them (or their sub-pages) reopens the menu.
 * Going anywhere else forgets it.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useUiStore } from '../../../shared/storage';

/** First path segments from which going back reopens the menu. */
export const REOPEN_MENU_FROM: readonly string[] = ['/personalCenter', '/accountCenter', '/setting', '/payment', '/customer', '/about'];

/** True when `pathname` is one of REOPEN_MENU_FROM or below it. */
export function isReopenSource(pathname: string): boolean {
  return REOPEN_MENU_FROM.some((p) => pathname === p || pathname.startsWith(p + '/'));
}

/** Decides what to do when the path changes from `prev` to `next`. */
export function reopenDecision(prev: string | null, next: string, returnPath: string | null): 'reopen' | 'keep' | 'forget' {
  if (!returnPath) return 'keep';
  if (next === returnPath && prev !== null && isReopenSource(prev)) return 'reopen';
  // Moving between the listed pages (e.g. setting -> langue -> setting) keeps the return path.
  if (isReopenSource(next) || next === '/langue' || next === '/realname' || next === '/login') return 'keep';
  if (next === returnPath) return 'keep';
  return 'forget';
}

/** Watches navigation and reopens the menu when due. */
export function useReopenOnReturn(): void {
  const { pathname } = useLocation();
  const prev = useRef<string | null>(null);
  useEffect(() => {
    const ui = useUiStore.getState();
    const d = reopenDecision(prev.current, pathname, ui.sideMenuReturnPath);
    if (d === 'reopen') {
      ui.setSideMenuReturnPath(null);
      ui.openSideMenu();
    } else if (d === 'forget') ui.setSideMenuReturnPath(null);
    prev.current = pathname;
  }, [pathname]);
}
