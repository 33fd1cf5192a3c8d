/**
 * The checks before taking an ad (spec section 4 prompts; only verified users trade OTC): logged in,
 * a nickname set, identity verified. Each failing check shows its own prompt (shared/guards).
 */
import { useCallback } from 'react';
import { useRequireNickname, useRequireVerified } from '../../../shared/guards';

/** Returns a check that passes when the user may trade OTC now (else it prompts). */
export function useOtcTradeGuard(): () => boolean {
  const requireNickname = useRequireNickname();
  const requireVerified = useRequireVerified();
  return useCallback(() => requireNickname() && requireVerified(), [requireNickname, requireVerified]);
}
