import { defineConfig } from 'vitest/config';

// Each test file starts its own Hardhat dev node on a port of 8600-8619: files run one at a time to spare the CPU.
export default defineConfig({ test: { name: 'chain', include: ['src/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 90_000, fileParallelism: false } });
