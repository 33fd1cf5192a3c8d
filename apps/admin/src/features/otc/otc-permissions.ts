/**
 * The console permissions the server's OTC routes require (apps/server/src/modules/otc/otc.admin.routes.ts): the
 * console shows a decision only to a role the server will accept it from.
 */
import type { OperatorPermission } from '@exchange/api';

/** Review, suspend and reinstate merchants, close ads: compliance and admin. */
export const OTC_MODERATE: OperatorPermission = 'user_freeze';
/** Resolve an appeal (moves the escrowed coin): finance and admin. */
export const OTC_RESOLVE: OperatorPermission = 'wallet_decide';
