/**
 * i18next with zh and en (spec section 1). One JSON file per language and namespace, named after the
 * namespace (`<ns>.json`), picked up here with import.meta.glob, so adding a namespace needs no change
 * to this file:
 *   - a feature's own namespaces live in its folder: src/features/<feature>/locales/{en,zh}/<ns>.json
 *     (a feature may own several, e.g. security and apikeys in features/security);
 *   - namespaces of no single feature stay in src/locales/{en,zh}/<ns>.json: `common` and `errors`, and
 *     those shared code or several features read (`account`: shared/forms; `menu`: the side menu and
 *     the settings page).
 * A namespace's name is its file name wherever it lives, and must be unique across both places. en is
 * the source of truth; a test fails when zh lacks a key present in en or the other way round, or when
 * two folders declare the same namespace (locales.test.ts).
 *
 * Only `common` and `errors` (the shell, the API client's alerts) are in the initial JavaScript. Every
 * other namespace is its own small chunk, loaded for the current language only: by the route that
 * needs it (shared/routing/lazy-page.tsx loads a page's namespaces alongside its code), or by
 * react-i18next's Suspense when a component asks for one not loaded yet. A language change loads the
 * namespaces in use in the new language before switching (i18next's backend contract). Before this
 * split, the locales of both languages were 60 KB of the entry chunk.
 */
import i18next, { type BackendModule, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useAppStore, type Lang } from '../storage';

/** Languages of the app. */
export const LANGS: readonly Lang[] = ['zh', 'en'];

/** Namespaces bundled into the initial JavaScript (needed before any page: shell, alerts, guards). */
export const EAGER_NAMESPACES: readonly string[] = ['common', 'errors'];

const eagerFiles = import.meta.glob<Record<string, unknown>>('../../locales/*/{common,errors}.json', { eager: true, import: 'default' });
const lazyFiles = import.meta.glob<Record<string, unknown>>(
  ['../../locales/*/*.json', '../../features/*/locales/*/*.json', '!../../locales/*/{common,errors}.json'],
  { import: 'default' },
);

/** `<lng>` and `<ns>` of a locale file's path (src/locales or a feature's locales folder alike). */
const fileRe = /locales\/([a-z]+)\/([\w-]+)\.json$/;

/** The lazy locale chunks by `<lng>/<ns>` (`../../features/otc/locales/en/otc.json` is `en/otc`). */
const lazyByNs = new Map(Object.entries(lazyFiles).map(([path, load]) => [path.replace(/^.*locales\/|\.json$/g, ''), load] as const));

/** Resources bundled into the entry: `common` and `errors` of both languages. */
export function bundledResources(): Resource {
  const resources: Resource = {};
  for (const [path, json] of Object.entries(eagerFiles)) {
    const m = fileRe.exec(path);
    if (!m) continue;
    (resources[m[1]!] ??= {})[m[2]!] = json as Record<string, string>;
  }
  return resources;
}

/** Every namespace with an en file (bundled and lazy, in src/locales and the features' locales). */
export function namespaces(): string[] {
  const all = [...Object.keys(eagerFiles), ...Object.keys(lazyFiles)]
    .map((p) => fileRe.exec(p))
    .filter((m): m is RegExpExecArray => !!m && m[1] === 'en')
    .map((m) => m[2]!);
  return [...new Set(all)].sort();
}

/** i18next backend reading the lazy locale chunks; an unknown namespace resolves empty. */
const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    const load = lazyByNs.get(`${lng}/${ns}`);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (json) => callback(null, json),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

/** The i18next instance; initialised synchronously with the stored language and the bundled namespaces. */
export const i18n = i18next.createInstance();

void i18n
  .use(chunkBackend)
  .use(initReactI18next)
  .init({
    resources: bundledResources(),
    partialBundledLanguages: true,
    lng: useAppStore.getState().currentLangue,
    // No fallback language: zh has every key of en (locales.test.ts), and a fallback would make every lazy
    // namespace download in English as well for a Chinese user.
    fallbackLng: false,
    supportedLngs: [...LANGS],
    ns: [...EAGER_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    showSupportNotice: false,
  });

/**
 * Loads namespaces of the current language (those not loaded yet) and resolves when they are there.
 * A failed chunk is fetched once more; if it is still missing the promise rejects, so a route shows
 * its "failed to load, retry" screen instead of raw keys.
 * @param ns namespace names (unknown ones resolve as empty)
 */
export async function loadNamespaces(ns: readonly string[]): Promise<void> {
  if (ns.length === 0) return;
  await i18n.loadNamespaces([...ns]);
  const lng = i18n.language;
  const missing = ns.filter((n) => lazyByNs.has(`${lng}/${n}`) && !i18n.hasResourceBundle(lng, n));
  if (missing.length === 0) return;
  await i18n.reloadResources([lng], missing);
  const still = missing.filter((n) => !i18n.hasResourceBundle(lng, n));
  if (still.length) throw new Error(`locale chunks failed to load: ${still.map((n) => `${lng}/${n}`).join(', ')}`);
}

/** Loads every namespace of both languages (tests, which render components outside their routes). */
export async function loadAllLanguages(): Promise<void> {
  await Promise.all(
    Object.entries(lazyFiles).map(async ([path, load]) => {
      const m = fileRe.exec(path);
      if (m) i18n.addResourceBundle(m[1]!, m[2]!, await load(), true, true);
    }),
  );
  i18n.options.ns = namespaces();
}

// Follow the persisted language: one source of truth is the store's currentLangue.
useAppStore.subscribe((s, prev) => {
  if (s.currentLangue !== prev.currentLangue) void i18n.changeLanguage(s.currentLangue);
});

/** Current language ('zh' | 'en'). */
export function currentLang(): Lang {
  return useAppStore.getState().currentLangue;
}

/** Translates outside React: `t('errors:http.404')`. */
export const t = (key: string, opts?: Record<string, unknown>): string => i18n.t(key, opts) as string;
