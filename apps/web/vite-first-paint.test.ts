import { describe, expect, it } from 'vitest';
import { firstPaintHtml, type BuiltFile } from './vite-first-paint';

const chunk = (fileName: string, imports: string[], extra: { isEntry?: boolean; facadeModuleId?: string; css?: string[] } = {}): BuiltFile => ({
  type: 'chunk',
  fileName,
  imports,
  isEntry: extra.isEntry ?? false,
  facadeModuleId: extra.facadeModuleId ?? null,
  viteMetadata: { importedCss: new Set(extra.css ?? []) },
});

/** An entry importing react and a shared chunk; the home page importing the shared chunk, a helper and an icon chunk. */
const bundle: Record<string, BuiltFile> = Object.fromEntries(
  [
    chunk('assets/index-1.js', ['assets/react-2.js', 'assets/shared-3.js'], {
      isEntry: true,
      facadeModuleId: '/w/apps/web/index.html',
      css: ['assets/index-9.css'],
    }),
    chunk('assets/react-2.js', []),
    chunk('assets/shared-3.js', []),
    chunk('assets/HomePage-4.js', ['assets/shared-3.js', 'assets/format-5.js'], {
      facadeModuleId: '/w/apps/web/src/features/home/pages/HomePage.tsx',
      css: ['assets/HomePage-8.css'],
    }),
    chunk('assets/format-5.js', ['assets/icons-6.js', 'assets/react-2.js']),
    chunk('assets/icons-6.js', []),
    chunk('assets/TradePage-7.js', ['assets/shared-3.js'], { facadeModuleId: '/w/apps/web/src/features/spot/pages/TradePage.tsx' }),
    { type: 'asset' as const, fileName: 'assets/index-9.css' },
  ].map((f) => [f.fileName, f]),
);

const built = [
  '<head>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/react-2.js">',
  '<link rel="modulepreload" crossorigin href="/assets/shared-3.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-9.css">',
  '</head><body><img class="boot-banner" fetchpriority="high"></body>',
].join('\n');

describe('the page ordered for its first paint', () => {
  it("puts the app's JavaScript at low priority and preloads the home page's own chunks and CSS, once each", () => {
    const html = firstPaintHtml(built, bundle, '/');
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-1.js">');
    expect(html).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/react-2.js">');
    const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloaded).toEqual(['/assets/react-2.js', '/assets/shared-3.js', '/assets/HomePage-4.js', '/assets/format-5.js', '/assets/icons-6.js']);
    expect(html).toContain('<link rel="preload" as="style" fetchpriority="low" crossorigin href="/assets/HomePage-8.css">');
    // The shell's CSS stays render-blocking, the banner stays high; no other page is preloaded.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-9.css">');
    expect(html).toContain('<img class="boot-banner" fetchpriority="high">');
    expect(html).not.toContain('TradePage');
    expect(html.indexOf('HomePage-4.js')).toBeLessThan(html.indexOf('</head>'));
  });

  it('uses the base path, leaves a tag that has a priority alone, and a bundle without a home page unchanged', () => {
    expect(firstPaintHtml(built, bundle, '/app/')).toContain('href="/app/assets/HomePage-4.js"');
    const own = '<head><script type="module" fetchpriority="high" src="/a.js"></script></head>';
    expect(firstPaintHtml(own, bundle, '/')).toContain('<script type="module" fetchpriority="high" src="/a.js">');
    const noHome = Object.fromEntries(Object.entries(bundle).filter(([f]) => !f.includes('HomePage')));
    expect(firstPaintHtml(built, noHome, '/')).toBe(built);
  });
});
