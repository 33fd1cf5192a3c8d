/**
 * The server package's folder (apps/server), where the migrations (drizzle/), the seed data (seed-data/) and the
 * web build's default location are found: the nearest folder above this module that holds `drizzle/` and a
 * `package.json`. Found by walking up rather than by a fixed number of '..', so it is the same folder from the
 * sources (src/platform/config) and from the bundle of `npm start` (dist/bin), whatever their depths.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The nearest folder at or above `from` that holds `drizzle/` and `package.json`; throws when there is none. */
export function findServerRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'drizzle')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no server root (a folder with drizzle/ and package.json) at or above ${from}`);
  }
}

/** apps/server, absolute. */
export const SERVER_ROOT = findServerRoot(import.meta.dirname);

/**
 * The names of the folders directly under `src/<top>` of the server's sources (`top`: 'domains' or 'gateways'),
 * sorted; none when that folder is missing. How the composition root, the table list and the migrations find the
 * domains by folder (src/ is under the server root in every deployment).
 */
export function sourceFolders(top: string, root: string = SERVER_ROOT): string[] {
  const dir = path.join(root, 'src', top);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}
