/**
 * The new-version check of the shell (spec sections 2, 4, 8), kept apart from its dialog so that the dialog's
 * code (antd-mobile Dialog, react-spring) is loaded only when another build is deployed, never on a normal start.
 */
import { useEffect, useState } from 'react';
import { checkForUpdate } from '../../../shared/bridge';

/**
 * Once `enabled` (the first screen is idle), checks /version.json now and each time the app comes back to the
 * foreground. Returns the deployed build id when it differs from the running one, else null.
 */
export function useNewBuild(enabled: boolean): string | null {
  const [newBuild, setNewBuild] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const check = () => void checkForUpdate().then((id) => alive && setNewBuild(id));
    check();
    const onVisible = () => document.visibilityState === 'visible' && check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [enabled]);
  return newBuild;
}
