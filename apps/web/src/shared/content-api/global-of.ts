/** The `global` query parameter of the content endpoints (banners, notices; spec section 7) for a language. */
import type { Lang } from '../storage';

/** 'zh' -> 'CHINESE_SIM', any other language -> 'ENGLISH'. */
export const globalOf = (lang: Lang) => (lang === 'zh' ? 'CHINESE_SIM' : 'ENGLISH');
