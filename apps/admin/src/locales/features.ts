/**
 * Every feature's texts, found with import.meta.glob: `features/<feature>/locales.ts` exports by default
 * `{ en, zh }`, its keys in both languages (its menu label under nav.* included), so a new page adds its texts in its
 * own folder. en.ts and zh.ts merge them with the shared texts into one object per language (i18next's resources,
 * shared/i18n.ts).
 */

/** Texts: nested objects of strings, the i18n key being the path ('users.search'). */
export interface TextTree {
  [key: string]: string | TextTree;
}

/** What a feature's locales.ts exports by default. */
export interface FeatureTexts {
  en: TextTree;
  zh: TextTree;
}

/** The texts of one file, named for the error of a key defined twice. */
export interface TextsOf {
  file: string;
  texts: TextTree;
}

/**
 * One object with every key of `parts`; objects under the same key are merged (several features add to nav), a key
 * given twice (or a text where another file has an object) throws, naming both files.
 */
export function mergeTexts(parts: readonly TextsOf[]): TextTree {
  const merged: TextTree = {};
  const owner = new Map<string, string>();
  const add = (into: TextTree, texts: TextTree, prefix: string, file: string) => {
    for (const [key, value] of Object.entries(texts)) {
      const path = prefix + key;
      const there = into[key];
      if (typeof value === 'object' && (there === undefined || typeof there === 'object')) {
        add((into[key] = there ?? {}), value, `${path}.`, file);
      } else if (there === undefined) {
        into[key] = value;
        owner.set(path, file);
      } else {
        throw new Error(`text key '${path}' given twice: ${owner.get(path) ?? 'an object in another file'} and ${file}`);
      }
    }
  };
  for (const { file, texts } of parts) add(merged, texts, '', file);
  return merged;
}

const modules = import.meta.glob<{ default?: FeatureTexts }>('../features/*/locales.ts', { eager: true });

/** Each feature's texts with its file, in the files' order. */
export const featureTexts: readonly { file: string; texts: FeatureTexts }[] = Object.entries(modules)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([file, mod]) => {
    if (!mod.default) throw new Error(`${file} has no default export ({ en, zh })`);
    return { file, texts: mod.default };
  });
