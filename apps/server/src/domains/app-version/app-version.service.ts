/**
 * App versions (spec section 4 "Native update flow"): the app asks for the latest version of its platform
 * against its own; operators publish versions with their reasons in zh and en (and, for the shells, the web bundle
 * the server serves, packaged for the live update) and withdraw them. Each operator action writes its audit row in
 * the transaction of the change (app_version_publish, app_version_withdraw). Nothing here moves money: the
 * versions are database rows, not engine commands.
 */
import type { AppPlatform, AppRelease, LatestVersion, PublishVersionBody } from '@exchange/api';
import { APP_VERSION_PATHS } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/shared/errors';
import type { Actor } from '../../platform/shared/operator';
import { packageWebBundle, type PackagedBundle } from './app-version.bundle';
import { createAppVersionRepository, type AppVersionRow, type AuditInsert } from './app-version.repository';
import { versionOrder } from './app-version.semver';

/** Most versions the console list shows. */
export const APP_VERSION_LIST_LIMIT = 200;

/** The service. */
export interface AppVersionService {
  /** The newest live version of `platform` and whether it is higher than `current` (a valid version string). */
  latest(platform: AppPlatform, current: string): Promise<LatestVersion>;
  /** The web bundle zip of a version; throws app_version_not_found (404) when the version has none or is withdrawn. */
  bundle(id: bigint): Promise<Buffer>;
  /** Every version, newest publication first. */
  list(): Promise<AppRelease[]>;
  /**
   * Publishes a version. Throws reason_required (a language without a non-blank line), app_version_not_newer (not
   * higher than every version of the platform, withdrawn ones included), app_bundle_web_only (a bundle for web),
   * app_bundle_unavailable (a bundle asked for and no web build on the server).
   */
  publish(actor: Actor, body: PublishVersionBody): Promise<AppRelease>;
  /** Withdraws a live version; throws app_version_not_found (404) when unknown or withdrawn already. */
  withdraw(actor: Actor, id: bigint): Promise<AppRelease>;
}

/** The reasons of a text, one per non-blank line, trimmed. */
export function reasonLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** The wire form of a row. */
export function releaseOf(r: AppVersionRow): AppRelease {
  return {
    id: r.id.toString(),
    platform: r.platform as AppPlatform,
    version: r.version,
    reasonsZh: reasonLines(r.reasonsZh),
    reasonsEn: reasonLines(r.reasonsEn),
    force: r.force,
    bundle: r.bundleSha256 ? { url: `/api/${APP_VERSION_PATHS.bundle}?id=${r.id}`, sha256: r.bundleSha256, sizeBytes: r.bundleSize } : null,
    downloadUrl: r.downloadUrl,
    publishedAt: r.publishedAt.getTime(),
    withdrawnAt: r.withdrawnAt ? r.withdrawnAt.getTime() : 0,
  };
}

/** The audit view of a version (no bundle bytes). */
function auditView(r: AppVersionRow): Record<string, unknown> {
  const { id, platform, version, force, downloadUrl, bundleSha256, bundleSize, reasonsZh, reasonsEn, withdrawnAt } = r;
  return { id: id.toString(), platform, version, force, downloadUrl, bundleSha256, bundleSize, reasonsZh, reasonsEn, withdrawn: withdrawnAt !== null };
}

/** Builds the service over `db`; `webDist` is the web build the server serves (packaged on publish with a bundle). */
export function createAppVersionService(deps: {
  db: Db;
  webDist: string;
  now?: () => number;
  packageBundle?: (webDist: string) => Promise<PackagedBundle | null>;
}): AppVersionService {
  const repo = createAppVersionRepository(deps.db);
  const now = deps.now ?? Date.now;
  const pack = deps.packageBundle ?? packageWebBundle;

  function audit(actor: Actor, action: string, before: unknown, after: unknown): AuditInsert {
    return {
      operatorId: actor.id,
      operatorEmail: actor.email,
      action,
      before,
      after,
      at: new Date(now()),
      ip: actor.ip.slice(0, 64),
      userAgent: actor.userAgent.slice(0, 256),
    };
  }

  return {
    async latest(platform, current) {
      const cur = versionOrder(current);
      if (cur === null) throw new AppError('validation_failed', 400, 'current');
      const row = await repo.newest(platform, false);
      return { latest: row ? releaseOf(row) : null, updateAvailable: row !== null && row.versionOrder > cur };
    },

    async bundle(id) {
      const row = await repo.byId(id);
      if (!row || row.withdrawnAt || !row.bundleSha256) throw new AppError('app_version_not_found', 404);
      const zip = await repo.bundle(id);
      if (!zip) throw new AppError('app_version_not_found', 404);
      return zip;
    },

    async list() {
      return (await repo.list(APP_VERSION_LIST_LIMIT)).map(releaseOf);
    },

    async publish(actor, body) {
      const order = versionOrder(body.version);
      if (order === null) throw new AppError('validation_failed', 400, 'version');
      if (reasonLines(body.reasonsZh).length === 0 || reasonLines(body.reasonsEn).length === 0) throw new AppError('reason_required', 400);
      if (body.bundle && body.platform === 'web') throw new AppError('app_bundle_web_only', 400, 'bundle');
      const newest = await repo.newest(body.platform, true);
      if (newest && newest.versionOrder >= order) throw new AppError('app_version_not_newer', 400, 'version');
      const packaged = body.bundle ? await pack(deps.webDist) : null;
      if (body.bundle && !packaged) throw new AppError('app_bundle_unavailable', 400, 'bundle');
      const row = await repo.insert(
        {
          platform: body.platform,
          version: body.version,
          versionOrder: order,
          reasonsZh: body.reasonsZh.trim(),
          reasonsEn: body.reasonsEn.trim(),
          force: body.force ?? false,
          downloadUrl: body.downloadUrl ?? '',
          bundleSha256: packaged?.sha256 ?? '',
          bundleSize: packaged?.zip.length ?? 0,
          publishedBy: actor.id,
          publishedAt: new Date(now()),
        },
        packaged?.zip ?? null,
        (r) => audit(actor, 'app_version_publish', null, auditView(r)),
      );
      if (!row) throw new AppError('app_version_not_newer', 400, 'version');
      return releaseOf(row);
    },

    async withdraw(actor, id) {
      const before = await repo.byId(id);
      const row =
        before && !before.withdrawnAt
          ? await repo.withdraw(id, new Date(now()), (r) => audit(actor, 'app_version_withdraw', auditView(before), auditView(r)))
          : null;
      if (!row) throw new AppError('app_version_not_found', 404);
      return releaseOf(row);
    },
  };
}
