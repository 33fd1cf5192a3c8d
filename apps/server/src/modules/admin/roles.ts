/**
 * What each operator role may do (issue 10, "For operators"): support = lookup and view; compliance = + KYC decisions;
 * finance = lookup and view (+ withdrawals in a later issue); admin = everything + operator management. Enforced per
 * route by `requireOperator(permission)` (auth.ts); the console hides what a role cannot do, the server refuses it.
 */
import type { OperatorRole } from '@exchange/api';

/** The actions a route may require. */
export type Permission = 'view' | 'kyc_decide' | 'user_freeze' | 'operators';

/** Permissions of each role. Freezing an account is a compliance decision (as KYC), and the admin's. */
export const ROLE_PERMISSIONS: Readonly<Record<OperatorRole, readonly Permission[]>> = {
  support: ['view'],
  finance: ['view'],
  compliance: ['view', 'kyc_decide', 'user_freeze'],
  admin: ['view', 'kyc_decide', 'user_freeze', 'operators'],
};

/** True when `role` is a known role and has `permission`. */
export function can(role: string, permission: Permission): boolean {
  return (ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[role]?.includes(permission) ?? false;
}

/** True when `s` names a role. */
export function isRole(s: string): s is OperatorRole {
  return Object.hasOwn(ROLE_PERMISSIONS, s);
}
