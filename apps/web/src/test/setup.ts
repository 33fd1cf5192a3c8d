// Test setup of the web project: jest-dom matchers and a clean localStorage per test.
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
// antd-mobile's imperative Dialog/Toast need a React 19 render function, as in the app (main.tsx).
import '../shared/ui/antd-compat';
import { loadAllLanguages } from '../shared/i18n';

// Components are rendered outside their routes, which load a page's locale namespaces in the app: load them all.
await loadAllLanguages();

// The machine is shared and test files run in parallel: give findBy/waitFor room.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
