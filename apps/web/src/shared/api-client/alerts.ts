/**
 * User-facing messages of spec section 8: toasts for FAILED answers and the HTTP alerts per status.
 * Toast duration defaults to 1000 ms (spec section 9). The same message within 2 s is not repeated,
 * so that 5 s polling against a dead server does not stack alerts.
 */
import { Toast } from 'antd-mobile';
import { t } from '../i18n';

/** Default toast duration of the spec (section 9), ms. */
export const TOAST_MS = 1000;

const HTTP_ALERT_STATUSES = [400, 401, 403, 404, 405, 408, 500, 501, 502, 503, 504, 505] as const;

/**
 * Text of the HTTP alert for `status` (spec section 8), in the current language. `status` null means
 * the connection to the server failed; an unknown status gives `fallback` (the error message).
 */
export function httpAlertText(status: number | null, fallback?: string): string {
  if (status === null) return t('errors:http.connectionFailed');
  if ((HTTP_ALERT_STATUSES as readonly number[]).includes(status)) return t(`errors:http.${status}`);
  return fallback || t('errors:http.other', { status });
}

let lastText = '';
let lastAt = 0;

/** Forgets the last toast so the next one always shows (tests). */
export function resetToastMemory(): void {
  lastText = '';
  lastAt = 0;
}

/** Shows a toast (1000 ms default) unless the same text was shown in the last 2 s. */
export function showToast(content: string, durationMs: number = TOAST_MS): void {
  const now = Date.now();
  if (content === lastText && now - lastAt < 2000) return;
  lastText = content;
  lastAt = now;
  Toast.show({ content, duration: durationMs });
}
