// Unit tests of the benchmark's loaders and flow builder (not benchmarks; nothing timed).
// Run: npx vitest run --config bench/vitest.config.ts (from the repository root).
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'bench', root: import.meta.dirname, include: ['src/**/*.test.ts'] } });
