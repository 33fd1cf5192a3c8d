// Test setup of the web project: jest-dom matchers and a clean localStorage per test.
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The machine is shared and test files run in parallel: give findBy/waitFor room.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
