/**
 * What each operator role may do: the table is packages/api ROLE_PERMISSIONS (shared with the console, which hides
 * what a role cannot do); enforced per route by `requireOperator(permission)` (auth.ts).
 */
import { ROLE_PERMISSIONS, type OperatorPermission, type OperatorRole } from '@exchange/api';

/** The actions a route may require. */
export type Permission = OperatorPermission;

/** True when `role` is a known role and has `permission`. */
export function can(role: string, permission: Permission): boolean {
  return (ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[role]?.includes(permission) ?? false;
}

/** True when `s` names a role. */
export function isRole(s: string): s is OperatorRole {
  return Object.hasOwn(ROLE_PERMISSIONS, s);
}
