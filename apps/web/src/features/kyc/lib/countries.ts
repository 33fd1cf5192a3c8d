/**
 * Countries of issue of a document (ISO 3166-1 alpha-2, what submitBasic takes; default CN): every country the
 * phone metadata knows, named in the app's language by the browser (Intl.DisplayNames), China first and the rest in
 * the language's alphabetical order.
 */
import { getCountries } from 'libphonenumber-js/mobile';

/** Default country of basic verification (the server's too: parseCountry in kyc-rules.ts reads '' as CN). */
export const DEFAULT_COUNTRY = 'CN';

/** `{ code, name }` for every country, China first, named in `lang`. */
export function countryOptions(lang: 'zh' | 'en'): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([lang === 'zh' ? 'zh-CN' : 'en'], { type: 'region' });
  const all = getCountries().map((code) => ({ code: code as string, name: names.of(code) ?? code }));
  const collator = new Intl.Collator(lang === 'zh' ? 'zh-CN' : 'en');
  all.sort((a, b) => (a.code === DEFAULT_COUNTRY ? -1 : b.code === DEFAULT_COUNTRY ? 1 : collator.compare(a.name, b.name)));
  return all;
}

/** The name of `code` in `lang` (the code itself when the browser has no name). */
export function countryName(code: string, lang: 'zh' | 'en'): string {
  try {
    return new Intl.DisplayNames([lang === 'zh' ? 'zh-CN' : 'en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
