#!/usr/bin/env node
// Initial JavaScript of the web app: the entry chunk and every chunk it imports statically
// (what the browser must load and run before the first screen can render), gzip-compressed at level 9 as the
// server sends them, summed and checked against the limit of 150 KB. The home route's lazy chunk and its own
// static imports (loaded right after, before home is complete) are listed as well, for information.
//
// Reads the Vite manifest (build.manifest in apps/web/vite.config.ts) of a build.
// With --app admin it measures the operator console instead (apps/admin/vite.config.ts, base /admin/): its initial
// JavaScript and, for every lazy page, what that route loads on top of it, for information (no limit).
// Usage:
//   node scripts/bundle-size.mjs                 measure apps/web/dist (or WEB_DIST)
//   node scripts/bundle-size.mjs --dist DIR      measure the build in DIR
//   node scripts/bundle-size.mjs --build         build the web app into a temp dir first, measure it, remove it
//   --limit KB                                   the limit (default 150)
//   --app admin                                  the console (apps/admin/dist or ADMIN_DIST): per route, no limit
// Exit code 1 when the initial JavaScript is over the limit or TypeBox is in the entry's or home's first load, 2 when the build or the manifest is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const limitKb = Number(opt('--limit', '150'));
const app = opt('--app', 'web');

/** Gzip size (level 9) of a file, bytes. */
function gz(file) {
  return gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length;
}

/**
 * The chunks a manifest entry needs before it runs: itself and its static imports, transitively.
 * @param {Record<string, {file: string, imports?: string[]}>} manifest Vite manifest
 * @param {string} key manifest key to start from
 * @param {Set<string>} seen keys already counted (shared across calls so a chunk is counted once)
 * @returns {string[]} manifest keys, in visit order
 */
export function staticClosure(manifest, key, seen = new Set()) {
  const out = [];
  const walk = (k) => {
    if (seen.has(k)) return;
    seen.add(k);
    out.push(k);
    for (const i of manifest[k]?.imports ?? []) walk(i);
  };
  walk(key);
  return out;
}

function measure(dist) {
  const mf = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(mf)) {
    console.error(`no Vite manifest at ${mf}: build the web app first (npm run build -w apps/web) or pass --build`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(mf, 'utf8'));
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const seen = new Set();
  const initial = staticClosure(manifest, entryKey, seen);
  const homeKey = Object.keys(manifest).find((k) => /features\/home\/pages\/HomePage\.tsx$/.test(k));
  const home = homeKey ? staticClosure(manifest, homeKey, seen) : [];

  const rows = (keys) =>
    keys
      .map((k) => ({ file: manifest[k].file, raw: readFileSync(path.join(dist, manifest[k].file)).length, gzip: gz(path.join(dist, manifest[k].file)) }))
      .sort((a, b) => b.gzip - a.gzip);
  const print = (title, list) => {
    console.log(title);
    for (const r of list) console.log(`  ${(r.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(r.raw / 1024).toFixed(1).padStart(7)} KB  ${r.file}`);
    const sum = list.reduce((s, r) => s + r.gzip, 0);
    console.log(`  ${(sum / 1024).toFixed(1).padStart(7)} KB gzip in ${list.length} files`);
    return sum;
  };
  const initialRows = rows(initial);
  const total = print('Initial JavaScript (entry and its static imports):', initialRows);
  const css = [...new Set(initial.flatMap((k) => manifest[k].css ?? []))];
  const cssGz = css.reduce((s, f) => s + gz(path.join(dist, f)), 0);
  console.log(`  (+ ${(cssGz / 1024).toFixed(1)} KB gzip of CSS in ${css.length} files, not counted)`);
  if (home.length) print('\nHome route, loaded lazily after the entry (not counted):', rows(home));
  const ok = total <= limitKb * 1024;
  console.log(`\ninitial JavaScript ${(total / 1024).toFixed(1)} KB gzip, limit ${limitKb} KB: ${ok ? 'ok' : 'OVER THE LIMIT'}`);
  // The schemas are the server's: a screen needs the wire types (erased) and the paths, never TypeBox at run time,
  // whose schema calls run when their module loads (paths live in schema-free modules, e.g. packages/api's
  // support-paths.ts, content-paths.ts, inbox-paths.ts). TypeBox's code names its kind symbol 'TypeBox.Kind'.
  const withTypeBox = [...initial, ...home].map((k) => manifest[k].file).filter((f) => readFileSync(path.join(dist, f), 'utf8').includes('TypeBox.Kind'));
  if (withTypeBox.length > 0) console.log(`TypeBox is in the first load of home: ${withTypeBox.join(', ')}: FAIL`);
  else console.log('no TypeBox in the first load of home: ok');
  return ok && withTypeBox.length === 0;
}

/**
 * The console's JavaScript per route: the entry with its static imports, then for every lazy page (a manifest entry
 * that is a dynamic import and ends in Page.tsx) the chunks it adds on top of the entry's, gzip level 9.
 */
function measureAdmin(dist) {
  const mf = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(mf)) {
    console.error(`no Vite manifest at ${mf}: build the console first (npm run build -w apps/admin) or pass --build`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(mf, 'utf8'));
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const initial = staticClosure(manifest, entryKey);
  const sizeOf = (keys) => keys.reduce((s, k) => s + gz(path.join(dist, manifest[k].file)), 0);
  const initialGz = sizeOf(initial);
  const all = Object.keys(manifest).filter((k) => manifest[k].file.endsWith('.js'));
  console.log(`Console initial JavaScript (entry and its static imports): ${(initialGz / 1024).toFixed(1)} KB gzip in ${initial.length} files`);
  console.log('Per route (the lazy page and the chunks it adds; the route loads the initial JavaScript as well):');
  const pages = Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && /Page\.tsx$/.test(k));
  for (const k of pages.sort()) {
    const extra = staticClosure(manifest, k, new Set(initial));
    const extraGz = sizeOf(extra);
    console.log(`  ${(extraGz / 1024).toFixed(1).padStart(7)} KB gzip + initial = ${((extraGz + initialGz) / 1024).toFixed(1).padStart(6)} KB  ${k}`);
  }
  console.log(`all the console's JavaScript: ${(sizeOf(all) / 1024).toFixed(1)} KB gzip in ${all.length} files`);
  return true;
}

const defaultDist = app === 'admin' ? process.env.ADMIN_DIST || path.join(root, 'apps/admin/dist') : process.env.WEB_DIST || path.join(root, 'apps/web/dist');
let dist = opt('--dist', defaultDist);
let tmp = null;
if (args.includes('--build')) {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'bundle-size-'));
  dist = path.join(tmp, 'dist');
  const b = spawnSync('npm', ['run', 'build', '-w', app === 'admin' ? 'apps/admin' : 'apps/web', '--', '--outDir', dist, '--emptyOutDir'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (b.status !== 0) {
    console.error('web build failed');
    process.exit(2);
  }
}
const ok = app === 'admin' ? measureAdmin(dist) : measure(dist);
if (tmp) rmSync(tmp, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
