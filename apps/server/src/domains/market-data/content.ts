/**
 * The seeded banner images (SVG files drawn into <dataDir>/static/banners by the content seed, domains/content),
 * served by market-data.routes.ts under /api/static/banners/. Banners and notices themselves are content items
 * edited in the console (domains/content).
 */
import fs from 'node:fs';
import path from 'node:path';

/** Absolute path of a banner image file in `bannerDir`, or undefined for an unknown name (or one that is not a plain .svg name). */
export function bannerFilePath(bannerDir: string, file: string): string | undefined {
  if (!/^[a-z0-9-]{1,60}\.svg$/.test(file)) return undefined;
  const full = path.join(bannerDir, file);
  return fs.existsSync(full) ? full : undefined;
}
