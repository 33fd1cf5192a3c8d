import { defineConfig } from 'drizzle-kit';

/**
 * The tables drizzle-kit generates the migrations from: the platform's and every domain's `<name>.tables.ts`, by
 * glob (the same files main/schema.ts finds at run time), so a new domain's tables need no line here.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/platform/db/schema/*.ts', './src/domains/*/*.tables.ts'],
  out: './drizzle',
});
