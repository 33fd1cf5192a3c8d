/**
 * antd-mobile's imperative feedback (Toast, Dialog, Modal), loaded on first use instead of with the
 * code that may need it: the API client and the guards are on every page, and these components bring
 * react-spring (about 25 KB gzip) with them, which a page without animations then never downloads.
 * Once loaded, calls run synchronously.
 */
import type { Dialog, Modal, Toast } from 'antd-mobile';

/** The feedback components. */
export interface Feedback {
  Toast: typeof Toast;
  Dialog: typeof Dialog;
  Modal: typeof Modal;
}

let loaded: Feedback | null = null;
let loading: Promise<Feedback> | null = null;

/** Loads the feedback components (once); resolves with them. A failed load is tried again on the next call. */
export function loadFeedback(): Promise<Feedback> {
  // Deep paths, not the 'antd-mobile' barrel: the shell imports the barrel statically, and a dynamic import of
  // it would put these components back into the initial chunk.
  loading ??= Promise.all([
    import('antd-mobile/es/components/toast'),
    import('antd-mobile/es/components/dialog'),
    import('antd-mobile/es/components/modal'),
  ]).then(
    ([toast, dialog, modal]) => (loaded = { Toast: toast.default, Dialog: dialog.default, Modal: modal.default }),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** Runs `fn` with the feedback components: at once when loaded, else once they are (a failed load drops it). */
export function withFeedback(fn: (f: Feedback) => void): void {
  if (loaded) fn(loaded);
  else loadFeedback().then(fn, () => {});
}
