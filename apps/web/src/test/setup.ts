// Test setup of the web project: jest-dom matchers and a clean localStorage per test.
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach } from 'vitest';
import { act, cleanup, configure } from '@testing-library/react';
// antd-mobile's imperative Dialog/Toast need a React 19 render function, as in the app (main.tsx).
import { unmountImperativeRoots } from '../shared/ui/antd-compat';
import { loadAllLanguages } from '../shared/i18n';
import { loadFeedback } from '../shared/ui/feedback';

// Components are rendered outside their routes, which load a page's locale namespaces in the app: load them all.
await loadAllLanguages();
// antd's Toast/Dialog load on first use in the app (shared/ui/feedback.ts); loaded here, calls run synchronously.
const feedback = await loadFeedback();

// The machine is shared and test files run in parallel: give findBy/waitFor room.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // A toast or dialog a test left open would update React after the file's jsdom window is gone (on CI: "window is
  // not defined" from React's scheduler after ContractOrderForm.test.tsx ended, every test passed).
  feedback.Toast.clear();
  feedback.Dialog.clear();
  feedback.Modal.clear();
  // Their closing animations would unmount the roots later, maybe after the window is gone: unmount them now.
  act(() => unmountImperativeRoots());
  cleanup();
  localStorage.clear();
});

afterAll(async () => {
  // Let React's scheduler run what is left while the window exists (the roots are unmounted after each test above).
  await new Promise((r) => setTimeout(r, 250));
});
