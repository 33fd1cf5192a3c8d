/**
 * Packages the web build the server serves (config.webDist) as a live-update bundle: a zip with index.html at its
 * root, as the shell's updater (@capgo/capacitor-updater, manual mode) expects. Left out: the precompressed copies
 * (.br, .gz: the shell reads the files from disk) and Vite's manifest folder (.vite). The sha256 lets the updater
 * check what it downloaded.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';

/** A packaged bundle: the zip bytes, their sha256 (hex) and the number of files in it. */
export interface PackagedBundle {
  zip: Buffer;
  sha256: string;
  files: number;
}

/** True for files of the build that go into the bundle. */
function wanted(rel: string): boolean {
  return !rel.startsWith('.vite/') && !/\.(br|gz)$/.test(rel);
}

async function walk(dir: string, base: string, out: Record<string, Uint8Array>): Promise<void> {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const abs = path.join(dir, e.name);
    const rel = path.relative(base, abs).split(path.sep).join('/');
    if (e.isDirectory()) await walk(abs, base, out);
    else if (e.isFile() && wanted(rel)) out[rel] = await fs.readFile(abs);
  }
}

/**
 * Zips `webDist` (deflate level 6). Returns null when it holds no index.html (no web build on this server: the
 * caller answers app_bundle_unavailable).
 */
export async function packageWebBundle(webDist: string): Promise<PackagedBundle | null> {
  try {
    await fs.access(path.join(webDist, 'index.html'));
  } catch {
    return null;
  }
  const files: Record<string, Uint8Array> = {};
  await walk(webDist, webDist, files);
  const zip = Buffer.from(zipSync(files, { level: 6 }));
  return { zip, sha256: createHash('sha256').update(zip).digest('hex'), files: Object.keys(files).length };
}
