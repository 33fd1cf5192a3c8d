/**
 * Every table of the database (Drizzle, PostgreSQL dialect): the platform's (platform/db/schema/) and each domain's
 * `<name>.tables.ts` files, found by folder, as this module's default export (a record by SQL name). The database's
 * projection writer finds the tables here by SQL name (`SCHEMA_MODULE` in domains.ts: the database worker thread
 * imports this module by its URL); drizzle-kit reads the same files by glob (drizzle.config.ts) to generate the
 * migrations (`npm run db:generate -w apps/server` writes them to apps/server/drizzle/, applied at start; the same
 * schema and migrations serve PGlite and PostgreSQL). A new domain's tables file is found: no line here names it.
 *
 * The file names are read from the server's sources (src/ under the server root); the imports are a template of the
 * folder and file name, which esbuild (scripts/build.mjs) bundles as a glob of every tables file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as projectionCursor from '../platform/db/schema/projection-cursor';
import * as audit from '../platform/db/schema/audit';
import { SERVER_ROOT, sourceFolders } from '../platform/config/server-root';

/** Each domain's tables files under src/domains, as [folder, file name without `.tables.ts`], sorted. */
function tablesFiles(): [string, string][] {
  return sourceFolders('domains').flatMap((d) =>
    fs
      .readdirSync(path.join(SERVER_ROOT, 'src', 'domains', d))
      .filter((f) => f.endsWith('.tables.ts'))
      .sort()
      .map((f): [string, string] => [d, f.slice(0, -'.tables.ts'.length)]),
  );
}

const modules: Record<string, unknown>[] = [
  projectionCursor,
  audit,
  ...(await Promise.all(tablesFiles().map(async ([d, t]) => (await import(`../domains/${d}/${t}.tables.ts`)) as Record<string, unknown>))),
];

/** Every table by its SQL name. Throws at load when two different tables share a name. */
const tables: Record<string, PgTable> = {};
for (const m of modules)
  for (const v of Object.values(m)) {
    if (!is(v, PgTable)) continue;
    const name = getTableName(v);
    if (tables[name] !== undefined && tables[name] !== v) throw new Error(`two tables named ${name}`);
    tables[name] = v;
  }
export default tables;
