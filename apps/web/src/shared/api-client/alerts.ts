/**
 * User-facing messages of spec section 8: toasts for FAILED answers and the HTTP alerts per status
 * (texts in http-alerts.ts). Toast duration defaults to 1000 ms (spec section 9). The same message
 * within 2 s is not repeated, so that 5 s polling against a dead server does not stack alerts.
 */
import { showTimedToast } from '../ui/feedback';

export { HTTP_ALERT_STATUSES, httpAlertText } from './http-alerts';

/** Default toast duration of the spec (section 9), ms. */
export const TOAST_MS = 1000;

let lastText = '';
let lastAt = 0;

/** Forgets the last toast so the next one always shows (tests). */
export function resetToastMemory(): void {
  lastText = '';
  lastAt = 0;
}

/** Shows a toast (1000 ms on screen by default, counted from when it is painted) unless the same text was shown in the last 2 s. */
export function showToast(content: string, durationMs: number = TOAST_MS): void {
  const now = Date.now();
  if (content === lastText && now - lastAt < 2000) return;
  lastText = content;
  lastAt = now;
  showTimedToast({ content }, durationMs);
}
