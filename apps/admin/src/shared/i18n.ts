/**
 * i18next for the console: zh (default, the operators' language) and en, chosen by the language switch and kept in
 * localStorage. The server's error messages follow the same language (header `lang`, shared/api.ts). The texts: the
 * shared ones in src/locales/en.ts and zh.ts, each feature's in features/<feature>/locales.ts, merged there.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';
import { zh } from '../locales/zh';

/** The console's languages. */
export type ConsoleLang = 'zh' | 'en';
const KEY = 'exchange-console-lang';

/** The stored language, else the browser's (en when it prefers English), else zh. */
export function initialLang(): ConsoleLang {
  const stored = localStorage.getItem(KEY);
  if (stored === 'zh' || stored === 'en') return stored;
  return navigator.language.toLowerCase().startsWith('en') ? 'en' : 'zh';
}

/** Switches the UI language and remembers it. */
export function setLang(lang: ConsoleLang): void {
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, zh: { translation: zh } },
  lng: initialLang(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  // No advertisement in the browser console or the test output (i18next >= 25 prints one at init).
  showSupportNotice: false,
});
document.documentElement.lang = i18n.language;

export default i18n;
