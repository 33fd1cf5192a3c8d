/**
 * Keeps ARCHITECTURE.md section 14 ("Adding a domain") honest: its worked example is the savings module as it is in
 * the code (`domains/earn/earn.module.ts`), and every place it says a new domain is registered really is the one
 * place it says: each domain folder's module and tables files are found by folder (`main/domains.ts`, `main/schema.ts`
 * and drizzle.config.ts name no domain), each core machine's command list is in `Engine.machines()`, each web
 * feature's routes and each console page beside its feature (gathered by glob: no list to edit), and nothing else
 * names a domain's module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const SERVER = 'apps/server/src';

/** Section 14 of ARCHITECTURE.md (up to the next section or the end). */
function section14(): string {
  const doc = read('ARCHITECTURE.md');
  const start = doc.indexOf('## 14. Adding a domain');
  expect(start, 'ARCHITECTURE.md has section 14').toBeGreaterThan(0);
  const next = doc.indexOf('\n## ', start + 5);
  return doc.slice(start, next === -1 ? undefined : next);
}

/** Every file under `dir` (relative to the repository), recursively. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }) as string[]).map((f) => path.join(dir, f));
}

describe('ARCHITECTURE.md section 14', () => {
  it('shows the savings module exactly as the code has it', () => {
    const block = /```ts\n([\s\S]*?)```/.exec(section14())?.[1];
    expect(block, 'section 14 has a ts code block').toBeDefined();
    const code = read(`${SERVER}/domains/earn/earn.module.ts`);
    const start = code.indexOf("declare module '../../platform/domain-module'");
    const last = 'export default earnModule satisfies DomainModule<AppContext>;';
    expect(start).toBeGreaterThan(0);
    expect(squash(block!)).toBe(squash(code.slice(start, code.indexOf(last) + last.length)));
  });

  it('names files that exist', () => {
    for (const rel of [
      'packages/core/src/engine.ts',
      'packages/core/src/types.ts',
      `${SERVER}/main/domains.ts`,
      `${SERVER}/main/schema.ts`,
      `${SERVER}/main/context.ts`,
      `${SERVER}/platform/domain-module.ts`,
      `${SERVER}/platform/db/migrations.ts`,
      `${SERVER}/platform/platform-context.ts`,
      `${SERVER}/platform/engine-host/projection.ts`,
      `${SERVER}/platform/shared/private-push.ts`,
      `${SERVER}/platform/shared/periodic-job.ts`,
      'apps/server/drizzle',
      'apps/web/src/features',
      'apps/admin/src/features',
    ])
      expect(fs.existsSync(path.join(ROOT, rel)), rel).toBe(true);
    expect(read('packages/core/src/engine.ts')).toMatch(/machines\(\)/);
  });

  it('finds each server domain by its folder: its module and tables files, with no list naming it', async () => {
    const folders = fs.readdirSync(path.join(ROOT, SERVER, 'domains')).filter((d) => fs.statSync(path.join(ROOT, SERVER, 'domains', d)).isDirectory());
    expect(folders.length).toBeGreaterThan(20);
    const lists = [`${SERVER}/main/domains.ts`, `${SERVER}/main/schema.ts`, 'apps/server/drizzle.config.ts'].map(read).join('\n');
    for (const d of folders) expect(lists, `a list names ${d}`).not.toMatch(new RegExp(`domains/${d}/`));
    const { DOMAINS } = await import('./domains');
    const schema = ((await import('./schema')) as { default: Record<string, unknown> }).default;
    const serverFiles = filesUnder(SERVER).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    for (const d of folders) {
      const moduleFile = `${SERVER}/domains/${d}/${d}.module.ts`;
      expect(fs.existsSync(path.join(ROOT, moduleFile)), `${d} has its module file`).toBe(true);
      // the module is found, under its folder's name, and checks its needs against the context in its own file
      expect(DOMAINS.map((m) => m.name)).toContain(d);
      expect(read(moduleFile)).toMatch(/^export default \w+ satisfies DomainModule<AppContext>;$/m);
      // nothing imports a module file (main/domains.ts imports them by a template of the folder name)
      const importers = serverFiles.filter((f) => read(f).includes(`/${d}/${d}.module'`));
      expect(importers, `files importing the ${d} module`).toEqual([]);
      // every table of its tables files is in the schema the database worker reads
      for (const t of fs.readdirSync(path.join(ROOT, SERVER, 'domains', d)).filter((f) => f.endsWith('.tables.ts'))) {
        const tables = Object.values((await import(`../domains/${d}/${t}`)) as Record<string, unknown>).filter(
          (v) => typeof v === 'object' && v !== null && Object.values(schema).includes(v),
        );
        const exported = read(`${SERVER}/domains/${d}/${t}`).match(/^export const \w+ = pgTable\(/gm) ?? [];
        expect(tables.length, `${d}/${t}: its tables in main/schema.ts`).toBe(exported.length);
      }
    }
  });

  it('gathers the web features and console pages from their own folders (no list to edit)', () => {
    const webRoutes = read('apps/web/src/app/routes.tsx');
    expect(webRoutes).toMatch(/import\.meta\.glob(<[^(]*>)?\(['"][^'"]*features\/\*\/routes\.tsx['"]/);
    const consoleFeatures = read('apps/admin/src/app/console-features.ts');
    expect(consoleFeatures).toMatch(/import\.meta\.glob(<[^(]*>)?\(['"][^'"]*features\/\*\/\*\.console\.tsx['"]/);
    for (const f of fs.readdirSync(path.join(ROOT, 'apps/web/src/features'))) {
      const dir = path.join(ROOT, 'apps/web/src/features', f);
      if (!fs.statSync(dir).isDirectory()) continue;
      // a feature with pages declares its routes beside them (or is one of the router's own fallbacks in app/: the
      // not-found and placeholder pages)
      const appRouter = fs
        .readdirSync(path.join(ROOT, 'apps/web/src/app'))
        .filter((x) => /\.tsx?$/.test(x))
        .map((x) => read(`apps/web/src/app/${x}`))
        .join('\n');
      if (fs.existsSync(path.join(dir, 'pages')))
        expect(fs.existsSync(path.join(dir, 'routes.tsx')) || appRouter.includes(`features/${f}/`), `web feature ${f} has routes.tsx`).toBe(true);
    }
  });
});
