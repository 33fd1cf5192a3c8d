/**
 * The shell around every route: the page, the side menu, the set-nickname dialog, the new-version
 * dialog and the no-network screen (spec section 2 "Overlays"). The side menu and the nickname
 * dialog are loaded on their first opening; the version check runs once the first screen is idle, and the
 * new-version dialog is loaded only when it finds another build, which keeps them and antd-mobile's dialogs
 * (react-spring) out of the initial JavaScript and out of a normal start.
 */
import { Suspense, lazy, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { useUiStore } from '../../shared/storage';
import { useReopenOnReturn } from '../../features/menu/hooks/use-reopen-on-return';
import { NetworkOverlay } from '../../features/overlays/components/NetworkOverlay';
import { useUpdateCheck } from '../../features/overlays/hooks/use-update-check';
import { notifyAppReady, useUpdateOffer } from '../../shared/bridge';

const SideMenu = lazy(() => import('../../features/menu/components/SideMenu'));
const NicknameDialog = lazy(() => import('../../features/account/components/NicknameDialog'));
const UpdateDialog = lazy(() => import('../../features/overlays/components/UpdateDialog').then((m) => ({ default: m.UpdateDialog })));

/** Delay before the shell loads what the first screen does not need (the new-version check), ms. */
export const AFTER_FIRST_SCREEN_MS = 2000;

/** True once the page has loaded and then `AFTER_FIRST_SCREEN_MS` have passed (and the browser is idle). */
function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const go = () => {
      timer = setTimeout(() => {
        if ('requestIdleCallback' in window) window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
        else setReady(true);
      }, AFTER_FIRST_SCREEN_MS);
    };
    if (document.readyState === 'complete') go();
    else window.addEventListener('load', go, { once: true });
    return () => {
      window.removeEventListener('load', go);
      if (timer) clearTimeout(timer);
    };
  }, []);
  return ready;
}

/** True from the first time `flag` is true on. */
function useOnceTrue(flag: boolean): boolean {
  const [seen, setSeen] = useState(flag);
  useEffect(() => {
    if (flag) setSeen(true);
  }, [flag]);
  return seen || flag;
}

/** App shell layout. */
export function AppShell() {
  useReopenOnReturn();
  const menuWanted = useOnceTrue(useUiStore((s) => s.sideMenuOpen));
  const nickWanted = useOnceTrue(useUiStore((s) => s.nicknameDialogOpen));
  const afterFirstScreen = useAfterFirstScreen();
  useUpdateCheck(afterFirstScreen);
  const offer = useUpdateOffer((s) => s.offer);
  const dismissed = useUpdateOffer((s) => s.dismissed);
  const dismiss = useUpdateOffer((s) => s.dismiss);
  // The shell's live updater rolls a bundle back unless it is told the app started: the first screen is up.
  useEffect(() => {
    if (afterFirstScreen) notifyAppReady();
  }, [afterFirstScreen]);
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        {menuWanted && <SideMenu />}
        {nickWanted && <NicknameDialog />}
        {offer && offer.version !== dismissed && <UpdateDialog offer={offer} onClose={dismiss} />}
      </Suspense>
      <NetworkOverlay />
    </>
  );
}
