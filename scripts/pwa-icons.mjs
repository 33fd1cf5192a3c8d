#!/usr/bin/env node
// Writes the app icons of the PWA manifest (apps/web/vite.config.ts) and the iOS home-screen icon from the logo
// (apps/web/public/favicon.svg), with sharp: icon-192.png and icon-512.png (purpose any: the logo's rounded square on
// transparency), maskable-512.png (purpose maskable: the logo's blue to the edges, the mark inside the 80% safe
// circle), apple-touch-icon.png (180 px, opaque: iOS puts its own mask on it). Run after changing the logo:
//   node scripts/pwa-icons.mjs
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'apps/web/public/icons');
mkdirSync(out, { recursive: true });

const BLUE = '#1f6fff';
const MARK = '<path d="M18 40l10-12 8 8 10-14" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>';
/** The logo: the rounded square and the mark. */
const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${BLUE}"/>${MARK}</svg>`;
/** Full bleed, the mark scaled to 70% about the centre (inside the maskable safe zone, a circle of 80%). */
const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BLUE}"/><g transform="translate(32 32) scale(0.7) translate(-32 -31)">${MARK}</g></svg>`;

const render = (svg, size, file) =>
  sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));

await render(logo, 192, 'icon-192.png');
await render(logo, 512, 'icon-512.png');
await render(fullBleed, 512, 'maskable-512.png');
await render(fullBleed, 180, 'apple-touch-icon.png');
console.log(`icons written to ${path.relative(root, out)}`);
