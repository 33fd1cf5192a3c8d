/**
 * One route of the app, as a feature declares it in features/<feature>/routes.tsx (app/routes.tsx assembles them).
 * A type of its own beside lazyPage so that the features' route files import only shared/routing.
 */
import type { ComponentType } from 'react';

/** One route of the app. */
export interface AppRoute {
  path: string;
  Page: ComponentType;
  /** Shown inside the tab layout (bottom tab bar). */
  tab?: boolean;
  /** Needs a session; logged-out visitors go to /login. */
  login?: boolean;
  /**
   * Not a route object of its own: the `*` route finds it by path (router.tsx `fallthroughRoute`). For the account
   * centre's screens and every route after them, so that home's first match does not compile their regular expressions.
   */
  fallthrough?: boolean;
  /** A route spec section 2 does not list: one the app adds (app/routes.tsx EXTRA_ROUTES gathers them). */
  beyondSpec?: boolean;
  /**
   * Position in the app's route list: app/routes.tsx sorts every feature's routes by it, ascending. Unique across the
   * app (app/routes.test.ts). The routes of today are 10 apart, so a new one can go between two of them.
   */
  order: number;
}
