/**
 * Proves that the console's merged texts (the shared ones of en.ts and zh.ts with every feature's locales.ts) have
 * the same keys in zh as in en (the source), none empty; that every feature file gives both languages the same keys;
 * and that merging refuses a key two files define.
 */
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { featureTexts, mergeTexts } from './features';
import { zh } from './zh';

function keys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function values(o: Record<string, unknown>): unknown[] {
  return Object.values(o).flatMap((v) => (v !== null && typeof v === 'object' ? values(v as Record<string, unknown>) : [v]));
}

describe('console locales', () => {
  it('zh has every key of en and no other, and no text is empty', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const v of [...values(en), ...values(zh)]) expect(typeof v === 'string' && v.length > 0).toBe(true);
  });

  it('each feature gives en and zh the same keys, and the features are merged in', () => {
    expect(featureTexts.length).toBeGreaterThan(0);
    const merged = new Set(keys(en));
    for (const { file, texts } of featureTexts) {
      expect({ file, keys: keys(texts.zh).sort() }).toEqual({ file, keys: keys(texts.en).sort() });
      expect({ file, missing: keys(texts.en).filter((k) => !merged.has(k)) }).toEqual({ file, missing: [] });
    }
  });

  it('merging joins objects under one key and refuses a key given twice', () => {
    expect(
      mergeTexts([
        { file: 'a', texts: { nav: { a: 'A' } } },
        { file: 'b', texts: { nav: { b: 'B' } } },
      ]),
    ).toEqual({ nav: { a: 'A', b: 'B' } });
    expect(() =>
      mergeTexts([
        { file: 'a', texts: { nav: { a: 'A' } } },
        { file: 'b', texts: { nav: { a: 'B' } } },
      ]),
    ).toThrow("text key 'nav.a' given twice: a and b");
    expect(() =>
      mergeTexts([
        { file: 'a', texts: { nav: { a: 'A' } } },
        { file: 'b', texts: { nav: 'B' } },
      ]),
    ).toThrow(/'nav' given twice/);
    expect(() =>
      mergeTexts([
        { file: 'a', texts: { nav: 'A' } },
        { file: 'b', texts: { nav: { b: 'B' } } },
      ]),
    ).toThrow("text key 'nav' given twice: a and b");
  });
});
