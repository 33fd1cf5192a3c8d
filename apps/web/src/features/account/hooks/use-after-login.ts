/**
 * What happens after a successful login or registration: store token/userId/isLogin and the
 * account (spec section 3), load the member, and leave for ?redirect= (or home).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { Session } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { memberQueryOptions } from '../../../shared/session';

/**
 * Safe in-app redirect target from the query: only paths starting with a single '/' (no other origin,
 * no backslash after the slash, which browsers read as '//'), and never back to /login or /register; '/' otherwise.
 */
export function safeRedirect(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /^\/(login|register)(?=$|[/?#])/.test(raw)) return '/';
  return raw;
}

/** Returns `(session, account) => Promise<void>` that stores the session and navigates on. */
export function useAfterLogin() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  return async (session: Session, account: string, opts: { to?: string } = {}) => {
    useAppStore.getState().setSession({ token: session.token, userId: session.userId, phone: account });
    try {
      await qc.fetchQuery(memberQueryOptions(session.userId));
    } catch {
      /* the member loads again later */
    }
    navigate(opts.to ?? safeRedirect(params.get('redirect')), { replace: true });
  };
}
