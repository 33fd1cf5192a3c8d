/**
 * Versions `major.minor.patch` (packages/api AppVersionString: each part 0..9999): parsed to one sortable integer so
 * the database orders them and a comparison is a plain integer comparison.
 */

/** The largest part of a version (packages/api AppVersionString allows at most four digits). */
export const VERSION_PART_MAX = 9999;

/**
 * `major * 10^8 + minor * 10^4 + patch` for a version string; null when it is not three dot-separated parts of
 * 0..9999 without leading zeros. The result stays below 2^53.
 */
export function versionOrder(version: string): number | null {
  const m = /^(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})$/.exec(version);
  if (!m) return null;
  return Number.parseInt(m[1]!, 10) * 1e8 + Number.parseInt(m[2]!, 10) * 1e4 + Number.parseInt(m[3]!, 10);
}
