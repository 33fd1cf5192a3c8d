// Unit and component tests of the web app: `npx vitest run --project web` from the repository root.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // One React (19, apps/web/node_modules) for the app, antd-mobile and Testing Library alike.
  resolve: { dedupe: ['react', 'react-dom'] },
  define: { __BUILD_ID__: JSON.stringify('test') },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    server: { deps: { inline: [/@testing-library\/react/, /antd-mobile/, /react-i18next/, /@tanstack\/react-query/, /zustand/, /react-router/, /@react-spring/, /@use-gesture/, /ahooks/, /rc-field-form/] } },
  },
});
