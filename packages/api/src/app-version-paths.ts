/**
 * Paths of the app version API (app-version.ts), in a module of their own with no schema in it: the web app imports
 * them into its initial JavaScript, which must not carry TypeBox (a module's top-level schema calls are kept by the
 * bundler even when unused).
 */

/** Paths of the app's version API, relative to `/api/`. */
export const APP_VERSION_PATHS = {
  /** GET, public: the latest published version of a platform against the caller's */
  latest: 'app/version/latest',
  /** GET, public: the web bundle (zip) of a published version (the live-update plugin downloads it) */
  bundle: 'app/version/bundle',
} as const;

/** Paths of the console's version management (requireOperator), relative to `/api/`. */
export const APP_VERSION_ADMIN_PATHS = {
  /** GET: every version, newest first (view) */
  list: 'admin/appVersion/list',
  /** POST: publish a version (permission operators: admin) */
  publish: 'admin/appVersion/publish',
  /** POST: withdraw a published version: clients stop being offered it (permission operators: admin) */
  withdraw: 'admin/appVersion/withdraw',
} as const;
