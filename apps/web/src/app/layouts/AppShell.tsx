/**
 * The shell around every route: the page, the side menu, the set-nickname dialog, the new-version
 * dialog and the no-network screen (spec section 2 "Overlays"). Scroll goes to top on navigation.
 */
import { Outlet, ScrollRestoration } from 'react-router';
import { SideMenu } from '../../features/menu/components/SideMenu';
import { NicknameDialog } from '../../features/account/components/NicknameDialog';
import { NetworkOverlay } from '../../features/overlays/components/NetworkOverlay';
import { UpdateDialog } from '../../features/overlays/components/UpdateDialog';

/** App shell layout. */
export function AppShell() {
  return (
    <>
      <Outlet />
      <SideMenu />
      <NicknameDialog />
      <UpdateDialog />
      <NetworkOverlay />
      <ScrollRestoration />
    </>
  );
}
