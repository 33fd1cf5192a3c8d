/**
 * The console's providers: TanStack Query, antd's ConfigProvider (light or dark algorithm, zh_CN or en_US locale) with
 * antd's App (message/modal context), and the router.
 */
import { useState } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { ApiError } from '../shared/api';
import { useTheme } from '../shared/theme';
import { router } from './router';

export function App() {
  const { i18n } = useTranslation();
  const mode = useTheme();
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // A refused request (4xx) is not retried: it would be refused again.
          queries: { retry: (n, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && n < 2, refetchOnWindowFocus: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={{ algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm }}>
        <AntApp>
          <div className={`console console-${mode}`}>
            <RouterProvider router={router} />
          </div>
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
