/** GET admin/audit/list: the audit log, newest first, filtered and paged (used by the audit page and user detail). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_PATHS, type AdminAuditPage } from '@exchange/api';
import { apiGet } from '../api';

/** The filter of the audit log (all optional but the page). */
export interface AuditFilter {
  operatorId?: string;
  action?: string;
  userId?: string;
  from?: number;
  to?: number;
  page: number;
  pageSize: number;
}

/** The query of one page. */
export function auditListOptions(f: AuditFilter) {
  return queryOptions({
    queryKey: ['admin', 'audit', f],
    queryFn: () => apiGet<AdminAuditPage>(ADMIN_PATHS.auditList, { ...f }),
    placeholderData: keepPreviousData,
  });
}

/** One page of the audit log. */
export function useAuditList(f: AuditFilter) {
  return useQuery(auditListOptions(f));
}

/** The actions the server writes (modules/admin), for the filter's select. */
export const AUDIT_ACTIONS = [
  'login',
  'login_failed',
  'logout',
  'user_freeze',
  'user_unfreeze',
  'kyc_approve',
  'kyc_reject',
  'kyc_image_view',
  'operator_create',
  'operator_disable',
  'operator_enable',
  'operator_totp_reset',
  'app_version_publish',
  'app_version_withdraw',
  // customer service
  'support_reply',
  'support_claim',
  'support_assign',
  'support_close',
  'support_canned_create',
  'support_canned_update',
  'support_canned_delete',
  // content
  'content_create',
  'content_update',
  'content_publish',
  'content_unpublish',
  'content_delete',
  'content_image_upload',
  // API keys: an operator revokes a user's key
  'api_key_delete',
] as const;
