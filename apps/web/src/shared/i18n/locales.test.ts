// Proves every locale namespace is complete in both languages: each key of an en file exists in
// the zh file of the same namespace and the other way round, and no value is empty. en is the
// source of truth (ARCHITECTURE.md section 10, convention 14): a feature adding a key to one language only fails here.
// The files are those i18n.ts reads: src/locales/<lng>/<ns>.json and src/features/<feature>/locales/<lng>/<ns>.json;
// a namespace is declared in one folder only, with both languages side by side.
import { describe, expect, it } from 'vitest';

const en = import.meta.glob<Record<string, unknown>>(['../../locales/en/*.json', '../../features/*/locales/en/*.json'], { eager: true, import: 'default' });
const zh = import.meta.glob<Record<string, unknown>>(['../../locales/zh/*.json', '../../features/*/locales/zh/*.json'], { eager: true, import: 'default' });

/** Flattens nested JSON to dotted keys with their string values. */
function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [kk, vv] of flatten(v as Record<string, unknown>, key)) out.set(kk, vv);
    else out.set(key, v);
  }
  return out;
}

const ns = (path: string) => /([\w-]+)\.json$/.exec(path)![1]!;
const enByNs = new Map(Object.entries(en).map(([p, j]) => [ns(p), flatten(j)]));
const zhByNs = new Map(Object.entries(zh).map(([p, j]) => [ns(p), flatten(j)]));

describe('locales', () => {
  it('has the same namespaces in en and zh', () => {
    expect([...zhByNs.keys()].sort()).toEqual([...enByNs.keys()].sort());
    expect(enByNs.has('common')).toBe(true);
    expect(enByNs.has('errors')).toBe(true);
  });

  it('declares each namespace in one folder, with its zh file beside its en file', () => {
    const names = Object.keys(en).map(ns);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(Object.keys(zh).sort()).toEqual(
      Object.keys(en)
        .map((p) => p.replace('/locales/en/', '/locales/zh/'))
        .sort(),
    );
    // common and errors are bundled from src/locales (i18n.ts's eager glob), never from a feature.
    expect(
      Object.keys(en)
        .filter((p) => /\/(common|errors)\.json$/.test(p))
        .sort(),
    ).toEqual(['../../locales/en/common.json', '../../locales/en/errors.json']);
  });

  for (const [name, enKeys] of enByNs) {
    it(`namespace ${name}: zh has every en key and no extra key, none empty`, () => {
      const zhKeys = zhByNs.get(name) ?? new Map<string, unknown>();
      const missingInZh = [...enKeys.keys()].filter((k) => !zhKeys.has(k));
      const missingInEn = [...zhKeys.keys()].filter((k) => !enKeys.has(k));
      expect(missingInZh, `zh/${name}.json lacks keys`).toEqual([]);
      expect(missingInEn, `en/${name}.json lacks keys`).toEqual([]);
      const empty = [...enKeys, ...zhKeys].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
      expect(empty, `empty values in ${name}`).toEqual([]);
    });
  }

  it('keeps interpolation placeholders identical across languages', () => {
    const mismatched: string[] = [];
    for (const [name, enKeys] of enByNs) {
      const zhKeys = zhByNs.get(name)!;
      for (const [k, v] of enKeys) {
        const vars = (s: unknown) =>
          [...String(s).matchAll(/\{\{(\w+)\}\}/g)]
            .map((m) => m[1])
            .sort()
            .join(',');
        if (zhKeys.has(k) && vars(v) !== vars(zhKeys.get(k))) mismatched.push(`${name}:${k}`);
      }
    }
    expect(mismatched).toEqual([]);
  });
});
