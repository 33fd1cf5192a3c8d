// Test setup of the web project: jest-dom matchers and a clean localStorage per test.
import '@testing-library/jest-dom/vitest';
import '../shared/ui/antd-compat';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  localStorage.clear();
});
