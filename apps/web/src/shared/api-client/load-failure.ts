/**
 * What a failed load says (spec section 8), in the current language, computed when it
 * is shown (so a language change re-translates it):
 * - the browser is offline: 'No network, please check network settings' (the screen offers Reload);
 * - the connection to the server failed: 'Connection to the server failed';
 * - the 60 s timeout: the 408 alert 'Request timeout';
 * - an HTTP status of spec section 8 without an answer of ours: that status's alert (400 ... 505);
 * - an answer that is not the envelope: the 500 alert 'Server error';
 * - a FAILED answer (status FAILED): its errorMessage, as the spec shows it; SYS.0015: 'Login expired';
 * - another HTTP status: the error message (spec: "other: the error message");
 * - anything else (a script that failed to load, a bug): 'Load failed, please retry'.
 */
import { t } from '../i18n';
import { isApiError } from './api-error';
import { HTTP_ALERT_STATUSES, httpAlertText } from './http-alerts';

/** The kind of a load failure: which of the spec's texts and which action fit it. */
export type LoadFailureKind = 'offline' | 'connection' | 'timeout' | 'http' | 'server' | 'failed' | 'unknown';

/**
 * Classifies a failed load.
 * @param err the query's error (ApiError from the API client, or anything thrown)
 * @param online whether the browser is online (navigator.onLine by default)
 */
export function loadFailureKind(err: unknown, online: boolean = typeof navigator === 'undefined' || navigator.onLine): LoadFailureKind {
  if (!online) return 'offline';
  if (!isApiError(err)) return 'unknown';
  if (err.code === 'NETWORK') return 'connection';
  if (err.code === 'TIMEOUT') return 'timeout';
  if (err.code === 'PARSE') return 'server';
  if (err.code.startsWith('HTTP_')) return 'http';
  return 'failed';
}

/**
 * The text of spec section 8 for a failed load, in the current language (see the module comment).
 * @param err the query's error
 * @param online whether the browser is online (navigator.onLine by default)
 */
export function loadFailureText(err: unknown, online?: boolean): string {
  const kind = loadFailureKind(err, online);
  switch (kind) {
    case 'offline':
      return t('common:offline.title');
    case 'connection':
      return httpAlertText(null);
    case 'timeout':
      return httpAlertText(408);
    case 'server':
      return httpAlertText(500);
    case 'http': {
      const e = err as { httpStatus: number | null; message: string };
      const status = e.httpStatus ?? 0;
      return (HTTP_ALERT_STATUSES as readonly number[]).includes(status) ? httpAlertText(status) : e.message || httpAlertText(status);
    }
    case 'failed': {
      const e = err as { code: string; message: string };
      if (e.code === 'SYS.0015') return t('errors:loginExpired');
      return e.message || t('errors:loadFailed');
    }
    default:
      return t('errors:loadFailed');
  }
}
