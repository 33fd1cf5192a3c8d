// The core's vitest project as StrykerJS runs it (stryker.config.mjs): the same tests, with room for
// the slower instrumented code (every mutant switch and per-test coverage counter costs time).
import { defineConfig, mergeConfig } from 'vitest/config';
import core from './vitest.config';

export default mergeConfig(core, defineConfig({ test: { testTimeout: 300_000 } }));
