/**
 * App-wide providers: TanStack Query (API errors are toasted by the client, so no automatic retry
 * of FAILED answers), i18next, antd-mobile locale, and the theme attributes on <html>.
 */
import { useEffect, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import enUS from 'antd-mobile/es/locales/en-US';
import { i18n } from '../shared/i18n';
import { useAppStore } from '../shared/storage';
import { useThemeSync } from '../shared/theme';
// api-error directly, not the api-client barrel: the client's toasts and dialogs stay out of the initial chunk.
import { isApiError } from '../shared/api-client/api-error';
import { wsClient } from '../shared/ws-client';

/** The app's QueryClient. Network failures retry once; answers of the server never. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => count < 1 && isApiError(err, 'NETWORK'),
      refetchOnWindowFocus: false,
      staleTime: 2_000,
    },
    mutations: { retry: false },
  },
});
wsClient.attachQueryClient(queryClient);

function ThemeSync() {
  useThemeSync();
  return null;
}

/** Wraps the app in its providers. */
export function Providers({ children }: { children: ReactNode }) {
  const lang = useAppStore((s) => s.currentLangue);
  useEffect(() => {
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
  }, [lang]);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <ConfigProvider locale={lang === 'zh' ? zhCN : enUS}>
          <ThemeSync />
          {children}
        </ConfigProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
