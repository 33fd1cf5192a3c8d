import { defineConfig } from 'vitest/config';

// testTimeout: a guard against a hang, not a speed check (work is counted, e.g. bounded-walk's visited makers). The
// CPU-bound files (deep books, property runs) take 1-3 s alone, but files run two at a time on CI's 2 cores beside the
// server's tests, and vitest's 5 s default failed books, fast-book and bounded-walk on a loaded machine.
export default defineConfig({ test: { name: 'core', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000 } });
