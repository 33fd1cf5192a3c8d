/**
 * App versions and the native update flow (spec section 4 "Native update flow: check, show dialog with reasons,
 * start update; states 1 updating, 3 done (restart after 2 s), 4 failed"). Operators publish a version per
 * platform (android, ios, web) with the reasons for it in zh and en (one reason a line); the app asks for the latest
 * one against its own version and shows the new-version dialog when it is higher.
 *
 * A version of the Android or iOS shell may carry a web bundle: the server packages the web build it serves (a zip,
 * its sha256 and size kept in the database) and the shell's live-update plugin downloads it from
 * `/api/app/version/bundle?id=..` and applies it on restart, with no store release. Without a bundle the release
 * needs a new binary: `downloadUrl` (store or APK page) is opened. On the web an update is a reload onto the
 * deployed build (its service worker takes over).
 *
 * Versions are `major.minor.patch`, each part 0..9999 with no leading zero; they compare part by part.
 */
import { Type, type Static } from '@sinclair/typebox';

export * from './app-version-paths';

/** The platforms a version is published for. */
export const AppPlatform = Type.Union([Type.Literal('android'), Type.Literal('ios'), Type.Literal('web')]);
export type AppPlatform = Static<typeof AppPlatform>;

/** `major.minor.patch`, each part 0..9999 without leading zeros. */
export const AppVersionString = Type.String({ pattern: '^(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})$', maxLength: 14 });

/** The web bundle of a shell version: where to download it, its sha256 (hex) and size in bytes. */
export const AppBundle = Type.Object({ url: Type.String(), sha256: Type.String(), sizeBytes: Type.Integer() });
export type AppBundle = Static<typeof AppBundle>;

/** A published version. Times Unix ms. */
export const AppRelease = Type.Object({
  id: Type.String(),
  platform: AppPlatform,
  version: Type.String(),
  /** The reasons of the update, one per line of the operator's text, in each language. */
  reasonsZh: Type.Array(Type.String()),
  reasonsEn: Type.Array(Type.String()),
  /** A forced update: the dialog offers no "Later". */
  force: Type.Boolean(),
  /** Web bundle for the shell's live update; null = a binary release (see downloadUrl) or a web version. */
  bundle: Type.Union([AppBundle, Type.Null()]),
  /** Store or APK page of a binary release ('' = none). */
  downloadUrl: Type.String(),
  publishedAt: Type.Integer(),
  /** Withdrawn versions are no longer offered (Unix ms of the withdrawal, 0 = live). */
  withdrawnAt: Type.Integer(),
});
export type AppRelease = Static<typeof AppRelease>;

/** Query of app/version/latest: the platform and the caller's running version. */
export const LatestVersionQuery = Type.Object({ platform: AppPlatform, current: AppVersionString });
export type LatestVersionQuery = Static<typeof LatestVersionQuery>;

/** Answer of app/version/latest: the newest live version of the platform (null when none) and whether it is higher than `current`. */
export const LatestVersion = Type.Object({ latest: Type.Union([AppRelease, Type.Null()]), updateAvailable: Type.Boolean() });
export type LatestVersion = Static<typeof LatestVersion>;

/** Query of app/version/bundle. */
export const AppBundleQuery = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

/** Body of admin/appVersion/publish. Reasons: 1..2000 characters each, one reason per line. */
export const PublishVersionBody = Type.Object({
  platform: AppPlatform,
  version: AppVersionString,
  reasonsZh: Type.String({ minLength: 1, maxLength: 2000 }),
  reasonsEn: Type.String({ minLength: 1, maxLength: 2000 }),
  force: Type.Optional(Type.Boolean()),
  /** android/ios only: package the web build the server serves as the version's live-update bundle. */
  bundle: Type.Optional(Type.Boolean()),
  downloadUrl: Type.Optional(Type.String({ maxLength: 500, pattern: '^(https?://[^\\s]+)?$' })),
});
export type PublishVersionBody = Static<typeof PublishVersionBody>;

/** Body of admin/appVersion/withdraw. */
export const WithdrawVersionBody = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

/** Answer of admin/appVersion/list. */
export const AppReleaseList = Type.Object({ records: Type.Array(AppRelease) });
export type AppReleaseList = Static<typeof AppReleaseList>;
