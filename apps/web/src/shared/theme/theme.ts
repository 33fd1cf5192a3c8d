/**
 * Day/night theme and the rise/fall colour convention as attributes on <html> (ARCHITECTURE.md section 10):
 * data-theme="default|night", data-updown="green-up|red-up", plus antd-mobile's dark-mode switch
 * data-prefers-color-scheme="dark". Colours themselves are CSS variables in theme.css. The theme
 * also sets the status bar style (spec section 4).
 */
import { useEffect } from 'react';
import { useAppStore, type ThemeName, type UpDownColor } from '../storage';
import { setStatusBarStyle } from '../bridge';

/** Page background per theme, used for the status bar / theme-color. */
export const THEME_BACKGROUND: Record<ThemeName, string> = { default: '#ffffff', night: '#0b0e14' };

/** Writes the theme attributes to <html> and sets the status bar. */
export function applyTheme(theme: ThemeName, upDown: UpDownColor, lang: 'zh' | 'en'): void {
  const html = document.documentElement;
  html.setAttribute('data-theme', theme);
  html.setAttribute('data-updown', upDown);
  html.setAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
  if (theme === 'night') html.setAttribute('data-prefers-color-scheme', 'dark');
  else html.removeAttribute('data-prefers-color-scheme');
  setStatusBarStyle(theme === 'night' ? 'light' : 'dark', THEME_BACKGROUND[theme]);
}

/** Keeps <html> in step with the stored theme, colour convention and language. */
export function useThemeSync(): void {
  const theme = useAppStore((s) => s.theme);
  const upDown = useAppStore((s) => s.upDownColor);
  const lang = useAppStore((s) => s.currentLangue);
  useEffect(() => applyTheme(theme, upDown, lang), [theme, upDown, lang]);
}

/** CSS class for a signed change: 'c-up', 'c-down' or 'c-flat' (colours follow the convention). */
export function trendClass(trend: 'up' | 'down' | 'flat'): string {
  return trend === 'up' ? 'c-up' : trend === 'down' ? 'c-down' : 'c-flat';
}
