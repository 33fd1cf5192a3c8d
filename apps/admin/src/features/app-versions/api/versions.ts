/** GET admin/appVersion/list, POST admin/appVersion/publish and admin/appVersion/withdraw (the native update flow). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { APP_VERSION_ADMIN_PATHS, type AppRelease, type AppReleaseList, type PublishVersionBody } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';

/** The query of every version, newest publication first. */
export function versionsOptions() {
  return queryOptions({ queryKey: ['admin', 'app-versions'], queryFn: () => apiGet<AppReleaseList>(APP_VERSION_ADMIN_PATHS.list) });
}

/** Every version. */
export function useVersions() {
  return useQuery(versionsOptions());
}

/** Publishes a version (the server audits it). */
export function publishVersion(body: PublishVersionBody): Promise<AppRelease> {
  return apiPost<AppRelease>(APP_VERSION_ADMIN_PATHS.publish, { ...body });
}

/** Withdraws a version (the server audits it). */
export function withdrawVersion(id: string): Promise<AppRelease> {
  return apiPost<AppRelease>(APP_VERSION_ADMIN_PATHS.withdraw, { id });
}

/** The publish mutation; refreshes every console query (the list and the audit log). */
export function usePublishVersion() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: publishVersion, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}

/** The withdraw mutation; refreshes every console query. */
export function useWithdrawVersion() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: withdrawVersion, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
