/**
 * GET member/security/getSecurity lives in shared/session/security.ts (the payment methods read it too); the
 * account centre imports it from here like its other endpoints.
 */
export { getSecurity, securityQueryKey, securityQueryOptions, useSecurity } from '../../../shared/session';
