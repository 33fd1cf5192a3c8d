/**
 * Action guards of spec section 4:
 * - useRequireLogin(): when logged out, confirm 'You are not logged in, log in?' and go to /login
 *   on accept;
 * - useRequireNickname(): when the member has no nickname, prompt 'No nickname set, set one?' and
 *   open the set-nickname dialog on accept.
 * - useRequireVerified(): without basic identity verification, prompt and go to /personalCenter.
 * Each returns a function `() => boolean`: true when the action may proceed now.
 */
import { useCallback } from 'react';
import { useNavigate, useLocation } from 'react-router';
import { loadFeedback } from '../ui/feedback';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore } from '../storage';
import { useMember } from '../session';

/** Returns a check that passes when logged in, else asks to log in (spec section 4). */
export function useRequireLogin(): () => boolean {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(() => {
    if (useAppStore.getState().isLogin) return true;
    void loadFeedback()
      .then(({ Dialog }) =>
        Dialog.confirm({
          content: t('guard.notLoggedIn'),
          confirmText: t('guard.toLogin'),
          cancelText: t('cancel'),
        }),
      )
      .then((ok) => {
        if (ok) navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
      });
    return false;
  }, [t, navigate, location.pathname, location.search]);
}

/**
 * Returns a check that passes when the member has a nickname, else prompts to set one and opens
 * the nickname dialog on accept. Also fails (asking to log in) when logged out.
 */
export function useRequireNickname(): () => boolean {
  const { t } = useTranslation('common');
  const requireLogin = useRequireLogin();
  const { member } = useMember();
  return useCallback(() => {
    if (!requireLogin()) return false;
    // Not loaded yet: let the action go; the server still refuses it without a nickname.
    if (!member || member.nickName) return true;
    void loadFeedback()
      .then(({ Dialog }) =>
        Dialog.confirm({
          content: t('guard.noNickname'),
          confirmText: t('guard.toSetNickname'),
          cancelText: t('cancel'),
        }),
      )
      .then((ok) => {
        if (ok) useUiStore.getState().openNicknameDialog();
      });
    return false;
  }, [t, requireLogin, member]);
}

/**
 * Returns a check that passes when the member's basic identity verification is done (cardState PASS, spec
 * section 3), else prompts 'Please complete identity verification first' and goes to /personalCenter on accept
 * (spec section 4: "Actions needing verification prompt to go to /personalCenter"). Also fails (asking to log in)
 * when logged out. Fiat (OTC) trading uses it (features/otc/hooks/use-trade-guard.ts); the withdrawal page checks the
 * server's `verified` flag itself.
 */
export function useRequireVerified(): () => boolean {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const requireLogin = useRequireLogin();
  const { member } = useMember();
  return useCallback(() => {
    if (!requireLogin()) return false;
    if (member?.cardState === 'PASS') return true;
    void loadFeedback()
      .then(({ Dialog }) => Dialog.confirm({ content: t('guard.needVerify'), confirmText: t('guard.toVerify'), cancelText: t('cancel') }))
      .then((ok) => {
        if (ok) navigate('/personalCenter');
      });
    return false;
  }, [t, navigate, requireLogin, member]);
}
