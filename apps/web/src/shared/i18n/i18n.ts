/**
 * i18next with zh and en (spec section 1). Every feature owns namespaces: one JSON file per
 * language under src/locales/{en,zh}/<ns>.json, picked up here with import.meta.glob, so adding a
 * namespace needs no change to this file. en is the source of truth; a test fails when zh lacks a
 * key present in en or the other way round (locales.test.ts).
 */
import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useAppStore, type Lang } from '../storage';

/** Languages of the app. */
export const LANGS: readonly Lang[] = ['zh', 'en'];

const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' });

/** Resources by language and namespace, built from src/locales/{lang}/{ns}.json. */
export function buildResources(): Resource {
  const resources: Resource = {};
  for (const [path, json] of Object.entries(files)) {
    const m = /locales\/([a-z]+)\/([\w-]+)\.json$/.exec(path);
    if (!m) continue;
    const [, lang, ns] = m as unknown as [string, string, string];
    (resources[lang] ??= {})[ns] = json as Record<string, string>;
  }
  return resources;
}

/** Namespaces found under src/locales/en. */
export function namespaces(): string[] {
  return Object.keys(buildResources().en ?? {});
}

/** The i18next instance; initialised synchronously with the stored language. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: buildResources(),
  lng: useAppStore.getState().currentLangue,
  fallbackLng: 'en',
  ns: namespaces(),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  showSupportNotice: false,
});

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
