/**
 * Route of invitation and rebates: a main route, guarded as the side menu's "Invite" item (the page shows the rules
 * logged out and asks to log in for the rest).
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Invitation = lazyPage(() => import('./pages/InvitationPage'), ['invite']);

export const routes: AppRoute[] = [{ path: '/invitation', Page: Invitation, login: true, fallthrough: true, order: 430 }];
