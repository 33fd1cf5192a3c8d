/**
 * antd-mobile's imperative feedback (Toast, Dialog, Modal), loaded on first use instead of with the
 * code that may need it: the API client and the guards are on every page, and these components bring
 * react-spring (about 25 KB gzip) with them, which a page without animations then never downloads.
 * Once loaded, calls run synchronously.
 */
import type { Dialog, Modal, Toast, ToastShowProps } from 'antd-mobile';

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

/** Counts the toasts shown through showTimedToast: a timer closes its toast only while it is the latest one. */
let toastSeq = 0;

/**
 * Shows a toast for `ms` milliseconds counted from when it is on screen, not from the call.
 *
 * antd-mobile's own `duration` starts its timer at `Toast.show`; on a busy main thread (a slow phone rendering a
 * page) the toast may not have mounted when that timer fires, and its close then unmounts it unseen. Here the toast
 * is shown without a duration, and the timer starts at the first animation frame after the toast is rendered, so
 * it is painted for the whole time. A later toast replaces this one; this one's timer then closes nothing. A hidden
 * tab runs no animation frame: the toast's time starts when the page is seen again. A failed load of the components
 * drops the toast (as withFeedback does).
 *
 * @param props the toast's props (content, icon, maskClickable ...), without `duration`
 * @param ms how long it stays on screen, ms (the spec's default is 1000, section 9)
 */
export function showTimedToast(props: Omit<ToastShowProps, 'duration'>, ms: number): void {
  withFeedback(({ Toast }) => {
    const id = ++toastSeq;
    const handler = Toast.show({ ...props, duration: 0 }) as { isRendered?: () => boolean };
    const startTimer = () => {
      if (id !== toastSeq) return;
      if (handler.isRendered && !handler.isRendered()) {
        requestAnimationFrame(startTimer);
        return;
      }
      window.setTimeout(() => {
        if (id === toastSeq) Toast.clear();
      }, ms);
    };
    requestAnimationFrame(startTimer);
  });
}
