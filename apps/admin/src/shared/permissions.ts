/** What the logged-in operator may do, from packages/api ROLE_PERMISSIONS (the server enforces it again). */
import { ROLE_PERMISSIONS, type OperatorPermission } from '@exchange/api';
import { useSession } from './session';

/** True when the session's operator has `permission`. */
export function useCan(permission: OperatorPermission): boolean {
  const s = useSession();
  return s !== null && (ROLE_PERMISSIONS[s.operator.role]?.includes(permission) ?? false);
}
