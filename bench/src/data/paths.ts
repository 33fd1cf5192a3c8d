/** Where the benchmarks find the shared real market data (read in place, never copied into the repo). */
import fs from 'node:fs';
import path from 'node:path';

/** Repository root (the folder holding bench/). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/**
 * The shared data folder: `BENCH_DATA_DIR` if set, else `../shared/data` relative to the repo root.
 * Returns undefined when it does not exist (benchmarks then print that they are skipped).
 */
export function dataRoot(): string | undefined {
  const dir = process.env.BENCH_DATA_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'data');
  return fs.existsSync(dir) ? dir : undefined;
}

/** Absolute path of `rel` under the data folder, or undefined if the folder or the file is missing. */
export function dataFile(rel: string): string | undefined {
  const root = dataRoot();
  if (root === undefined) return undefined;
  const p = path.join(root, rel);
  return fs.existsSync(p) ? p : undefined;
}
