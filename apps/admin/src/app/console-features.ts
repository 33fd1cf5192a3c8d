/**
 * The console's pages and side menu, gathered from the features: each feature folder declares its pages in one file,
 * `features/<feature>/<feature>.console.tsx`, whose default export is a `ConsoleFeature` (path, lazy page, permission,
 * menu entry with label key, icon and order). This module finds those files with import.meta.glob, so a new page
 * touches only its feature folder; app/router.tsx turns `consolePages` into routes and app/Layout.tsx
 * `consoleMenu` into the side menu. The feature's texts, the menu label included, are in its `locales.ts`
 * (src/locales/features.ts).
 */
import type { OperatorPermission } from '@exchange/api';
import type { ConsoleFeature, ConsoleMenuEntry, ConsolePage } from '../shared/console-feature';

export type { ConsoleFeature, ConsoleMenuEntry, ConsolePage };

/** A side-menu entry with its page's path ('/users') and permission. */
export interface ConsoleMenuItem extends ConsoleMenuEntry {
  path: string;
  permission?: OperatorPermission;
}

/**
 * Joins the declarations (keyed by file, as import.meta.glob gives them): the pages ordered by their menu position,
 * a page without a menu entry right after the page declared before it in its file; the menu entries by `order`.
 * Throws on a file without a default export, a path declared twice or a menu position taken twice.
 */
export function assembleConsole(modules: Record<string, { default?: ConsoleFeature }>): {
  pages: ConsolePage[];
  menu: ConsoleMenuItem[];
} {
  const placed: { page: ConsolePage; order: number }[] = [];
  const pathFile = new Map<string, string>();
  const orderFile = new Map<number, string>();
  for (const [file, mod] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    if (!mod.default) throw new Error(`${file} has no default export (a ConsoleFeature)`);
    let order = Number.POSITIVE_INFINITY;
    for (const page of mod.default.pages) {
      const samePath = pathFile.get(page.path);
      if (samePath) throw new Error(`path '${page.path}' declared twice: ${samePath} and ${file}`);
      pathFile.set(page.path, file);
      if (page.menu) {
        const sameOrder = orderFile.get(page.menu.order);
        if (sameOrder) throw new Error(`menu order ${page.menu.order} taken twice: ${sameOrder} and ${file}`);
        orderFile.set(page.menu.order, file);
        order = page.menu.order;
      }
      placed.push({ page, order });
    }
  }
  // Array sort is stable: pages with the same position keep their order of declaration.
  const pages = placed.sort((a, b) => (a.order === b.order ? 0 : a.order - b.order)).map((p) => p.page);
  const menu = pages.flatMap((p) => (p.menu ? [{ ...p.menu, path: `/${p.path}`, ...(p.permission ? { permission: p.permission } : {}) }] : []));
  return { pages, menu };
}

const assembled = assembleConsole(import.meta.glob<{ default?: ConsoleFeature }>('../features/*/*.console.tsx', { eager: true }));

/** Every feature's pages, in menu order (the order does not decide which route matches: React Router ranks paths). */
export const consolePages: readonly ConsolePage[] = assembled.pages;
/** The side menu, top to bottom, before the operator's permissions hide entries. */
export const consoleMenu: readonly ConsoleMenuItem[] = assembled.menu;
