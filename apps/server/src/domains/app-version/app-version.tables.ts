/**
 * App versions (spec section 4 "Native update flow"): the versions operators publish per platform with
 * their reasons in both languages, and the web bundles packaged for the shells' live update. A bundle lives in the
 * database (not under DATA_DIR) so every gateway of a scale-out deploy serves it.
 */
import { bigint, boolean, customType, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** PostgreSQL bytea as a Buffer (node-postgres answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A published version of the app for one platform (android | ios | web); `version` is major.minor.patch. */
export const appVersions = pgTable(
  'app_versions',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    platform: text('platform').notNull(),
    version: text('version').notNull(),
    /** The version as one sortable number: major * 10^8 + minor * 10^4 + patch (each part below 10^4). */
    versionOrder: bigint('version_order', { mode: 'number' }).notNull(),
    /** The reasons, one per line, as the operator typed them. */
    reasonsZh: text('reasons_zh').notNull(),
    reasonsEn: text('reasons_en').notNull(),
    force: boolean('force').notNull().default(false),
    /** Store or APK page of a binary release ('' = none). */
    downloadUrl: text('download_url').notNull().default(''),
    /** sha256 (hex) and size of the web bundle packaged with the version ('' and 0 = none). */
    bundleSha256: text('bundle_sha256').notNull().default(''),
    bundleSize: integer('bundle_size').notNull().default(0),
    publishedBy: bigint('published_by', { mode: 'bigint' }).notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('app_versions_platform_version_uq').on(t.platform, t.version), index('app_versions_platform_order_idx').on(t.platform, t.versionOrder)],
);

/** The zip of a version's web bundle (index.html at its root), read by GET app/version/bundle. */
export const appBundles = pgTable('app_bundles', {
  versionId: bigint('version_id', { mode: 'bigint' })
    .primaryKey()
    .references(() => appVersions.id),
  zip: bytea('zip').notNull(),
});
