import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'drizzle-kit';

/**
 * The tables drizzle-kit generates migrations from, found by folder (the same files main/schema.ts gathers at run time),
 * so a domain's tables need no line here:
 * - `npm run db:generate -w apps/server`: the platform's tables and those of every domain without a `drizzle/` folder
 *   of its own, into apps/server/drizzle/;
 * - `DOMAIN=<name> npm run db:generate -w apps/server`: that domain's tables into `src/domains/<name>/drizzle/`, its
 *   own migrations (a new domain's: platform/db/migrations.ts applies them after the server's, tracked apart).
 */
// drizzle-kit runs from apps/server (npm run -w apps/server), where its paths below are relative to.
const domainsDir = path.resolve('src', 'domains');
const tablesFiles = (d: string) =>
  fs
    .readdirSync(path.join(domainsDir, d))
    .filter((f) => f.endsWith('.tables.ts'))
    .map((f) => `./src/domains/${d}/${f}`);
const hasOwnMigrations = (d: string) => fs.existsSync(path.join(domainsDir, d, 'drizzle'));
const domain = process.env.DOMAIN;
const folders = fs
  .readdirSync(domainsDir, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
if (domain !== undefined && !folders.includes(domain)) throw new Error(`DOMAIN=${domain}: no folder src/domains/${domain}`);

export default defineConfig(
  domain !== undefined
    ? { dialect: 'postgresql', schema: tablesFiles(domain), out: `./src/domains/${domain}/drizzle` }
    : {
        dialect: 'postgresql',
        schema: [
          './src/platform/db/schema/audit.ts',
          './src/platform/db/schema/projection-cursor.ts',
          ...folders.filter((d) => !hasOwnMigrations(d)).flatMap(tablesFiles),
        ],
        out: './drizzle',
      },
);
