/**
 * What a console feature declares: its pages and their side-menu entries. Each `features/<feature>/<feature>.console.tsx`
 * default-exports a `ConsoleFeature`; app/console-features.ts gathers them. The contract lives here, below both, so a
 * feature never imports the app.
 */
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import type { OperatorPermission } from '@exchange/api';

/** A page's entry in the side menu. */
export interface ConsoleMenuEntry {
  /** The i18n key of the label, also the page's header title (e.g. 'nav.users'). */
  label: string;
  icon: ReactNode;
  /** Position in the menu, smaller first, unique across the features (today's steps are 10 apart). */
  order: number;
}

/** One page under the console's layout (behind a session). */
export interface ConsolePage {
  /** Path under /admin/, without the leading slash: 'users', 'users/:userId'. */
  path: string;
  /** The page component, loaded when first shown: `lazy(() => import('./UsersPage'))`. */
  page: LazyExoticComponent<ComponentType>;
  /** Needed to open the page: without it the operator is sent to /users and the menu entry is hidden. */
  permission?: OperatorPermission;
  /** Absent for a page reached by links only (a detail page). */
  menu?: ConsoleMenuEntry;
}

/** What a `features/<feature>/<feature>.console.tsx` exports by default. */
export interface ConsoleFeature {
  pages: ConsolePage[];
}
