/**
 * /login and /register are for visitors: a user who is already logged in when the page opens is sent on
 * to the `redirect` query (when it is a safe in-app path) or home, without seeing the form.
 * The state is read once, as the page opens: the login or sign-up made on the page itself
 * navigates on its own (useAfterLogin) and must not be cut short by this.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppStore } from '../../../shared/storage';
import { safeRedirect } from './use-after-login';

/** Where to go instead of the form when the user was logged in as the page opened, else null. */
export function useLoggedInAway(): string | null {
  const [params] = useSearchParams();
  const [wasLoggedIn] = useState(() => useAppStore.getState().isLogin);
  return wasLoggedIn ? safeRedirect(params.get('redirect')) : null;
}
