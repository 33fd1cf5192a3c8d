/**
 * Texts of the HTTP alerts of spec section 8, per status, in the current language. No UI import here:
 * the load-failure view of the shell (shared/ui LoadFailed) uses them without pulling in antd's toasts.
 */
import { t } from '../i18n';

/** The statuses spec section 8 names an alert for. */
export const HTTP_ALERT_STATUSES = [400, 401, 403, 404, 405, 408, 500, 501, 502, 503, 504, 505] as const;

/**
 * Text of the HTTP alert for `status` (spec section 8), in the current language. `status` null means
 * the connection to the server failed; an unknown status gives `fallback` (the error message).
 */
export function httpAlertText(status: number | null, fallback?: string): string {
  if (status === null) return t('errors:http.connectionFailed');
  if ((HTTP_ALERT_STATUSES as readonly number[]).includes(status)) return t(`errors:http.${status}`);
  return fallback || t('errors:http.other', { status });
}
