/**
 * The shell around every route: the page, the side menu, the set-nickname dialog, the new-version
 * dialog and the no-network screen (spec section 2 "Overlays"). The side menu and the nickname
 * dialog are loaded on their first opening, which keeps them out of the initial JavaScript.
 */
import { Suspense, lazy, useEffect, useState } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useUiStore } from '../../shared/storage';
import { useReopenOnReturn } from '../../features/menu/hooks/use-reopen-on-return';
import { NetworkOverlay } from '../../features/overlays/components/NetworkOverlay';
import { UpdateDialog } from '../../features/overlays/components/UpdateDialog';

const SideMenu = lazy(() => import('../../features/menu/components/SideMenu'));
const NicknameDialog = lazy(() => import('../../features/account/components/NicknameDialog'));

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
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        {menuWanted && <SideMenu />}
        {nickWanted && <NicknameDialog />}
      </Suspense>
      <UpdateDialog />
      <NetworkOverlay />
      <ScrollRestoration />
    </>
  );
}
