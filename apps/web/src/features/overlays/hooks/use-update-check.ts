/**
 * The shell's update check (spec sections 2, 4, 8), kept apart from its dialog so that the dialog's code
 * (antd-mobile Dialog, react-spring) is loaded only when there is something to offer, never on a normal start.
 */
import { useEffect } from 'react';
import { checkForUpdate, onAppResume, useUpdateOffer } from '../../../shared/bridge';

/**
 * Once `enabled` (the first screen is idle), checks now and each time the app comes back to the foreground, and puts
 * what it finds in the update offer store (null when up to date).
 */
export function useUpdateCheck(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const check = () =>
      void checkForUpdate().then((offer) => {
        if (alive) useUpdateOffer.getState().setOffer(offer);
      });
    check();
    const stop = onAppResume(check);
    return () => {
      alive = false;
      stop();
    };
  }, [enabled]);
}
