/**
 * What the logged-in operator may do, from packages/api ROLE_PERMISSIONS (the server enforces it again). The permission
 * a whole page needs is declared with the page (features/<feature>/<feature>.console.tsx); a page checks the
 * permissions of its own actions with `useCan`.
 */
import { ROLE_PERMISSIONS, type OperatorPermission } from '@exchange/api';
import { useSession, type ConsoleSession } from './session';

/** True when `session`'s operator has `permission` (false without a session). */
export function can(session: ConsoleSession | null, permission: OperatorPermission): boolean {
  return session !== null && (ROLE_PERMISSIONS[session.operator.role]?.includes(permission) ?? false);
}

/** True when the session's operator has `permission`. */
export function useCan(permission: OperatorPermission): boolean {
  return can(useSession(), permission);
}
