// The build step that orders the page's requests for its first paint (apps/web/vite.config.ts): the page's shell
// (index.html: the brand bar, the first banner) paints from the page and its CSS alone, so the app's JavaScript is
// fetched at low priority behind them, and the home screen's chunks, which the app would otherwise ask for from inside
// its first render, are in the page from the start.
import type { Plugin } from 'vite';

/** The module of the start screen (the `/` route), whose chunks the page preloads. */
export const HOME_PAGE_MODULE = /\/src\/features\/home\/pages\/HomePage\.tsx$/;

/** The parts of a Rollup/Rolldown output chunk read here. */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** An output file: a chunk, or an asset (whose fields are not read). */
export type BuiltFile = BuiltChunk | { type: 'asset'; fileName: string };

/** `fileName` and every chunk it imports statically, transitively, as file names. */
function staticClosure(bundle: Record<string, BuiltFile>, fileName: string): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string) => {
    const c = bundle[f];
    if (!c || c.type !== 'chunk' || seen.has(f)) return;
    seen.add(f);
    for (const i of c.imports) walk(i);
  };
  walk(fileName);
  return seen;
}

/**
 * The built page (`html`, after Vite added its entry script and preload tags) with:
 * - `fetchpriority="low"` on the entry's `<script type="module">` and every `<link rel="modulepreload">`: the app's
 *   JavaScript is not needed for the shell's first paint, which needs the page, its CSS and the banner image;
 * - a low-priority `<link rel="modulepreload">` for each chunk of the home page (`HOME_PAGE_MODULE`) and its static
 *   imports that the entry does not already load, and a `<link rel="preload" as="style">` for their CSS, before the
 *   end of `<head>`. The app's lazy route finds them in the page and adds no link of its own: Vite's preload helper
 *   skips a file the page already links, which is what creating some 20 links and starting their requests in the
 *   first render cost (one main-thread task of 15-25 ms, 60-100 ms at a phone's 4x slower CPU).
 * Paths are `base` + file name. Returns `html` unchanged when the bundle has no entry or no home page.
 */
export function firstPaintHtml(html: string, bundle: Record<string, BuiltFile>, base: string): string {
  const chunks = Object.values(bundle).filter((c): c is BuiltChunk => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry);
  const home = chunks.find((c) => c.facadeModuleId !== null && HOME_PAGE_MODULE.test(c.facadeModuleId));
  if (!entry || !home) return html;
  const loaded = staticClosure(bundle, entry.fileName);
  const homeFiles = [...staticClosure(bundle, home.fileName)].filter((f) => !loaded.has(f));
  const css = new Set(homeFiles.flatMap((f) => [...((bundle[f] as BuiltChunk).viteMetadata?.importedCss ?? [])]));
  const tags = [
    ...homeFiles.map((f) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${base}${f}">`),
    ...[...css].map((f) => `<link rel="preload" as="style" fetchpriority="low" crossorigin href="${base}${f}">`),
  ];
  const low = html
    .replace(/<script type="module"(?![^>]*fetchpriority)/g, '<script type="module" fetchpriority="low"')
    .replace(/<link rel="modulepreload"(?![^>]*fetchpriority)/g, '<link rel="modulepreload" fetchpriority="low"');
  return low.replace('</head>', `${tags.map((t) => `\n    ${t}`).join('')}\n  </head>`);
}

/** The Vite plugin: `firstPaintHtml` over the built index.html (build only). */
export function firstPaint(): Plugin {
  let base = '/';
  return {
    name: 'exchange-first-paint',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return ctx.bundle ? firstPaintHtml(html, ctx.bundle as unknown as Record<string, BuiltFile>, base) : html;
      },
    },
  };
}
