/**
 * Keeps the module list and ARCHITECTURE.md section 14 honest:
 * - every folder under domains/ and gateways/ has its module (<name>.module.ts) and the module is in DOMAINS, by
 *   the folder's name, once; the order puts each module after those its `after` names, health first, the Binance
 *   API last; `orderModules` refuses an unknown name and a circle; building the context fails, naming the module and
 *   the service, when a `create` reads a service not built yet, and a lazy read later passes; a module needing a
 *   service no module provides does not compile;
 * - every route plugin file (*.routes.ts with a default export: a domain's route factory or a gateway's plugin) is
 *   registered: in a module's `routes`, or by a routes file that is (the Binance gateway registers its spot, futures
 *   and stream routes);
 * - the savings module quoted in ARCHITECTURE.md as the model is the code of domains/earn/earn.module.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from './domains';
import type { AppContext } from './context';
import { createDomainServices, orderModules, routePluginsOf, type DomainModule } from '../platform/domain-module';
import type { PlatformContext } from '../platform/platform-context';

const SRC = path.resolve(import.meta.dirname, '..');
const REPO = path.resolve(SRC, '..', '..', '..');

/** The module folders: every folder directly under domains/ and gateways/, as 'domains/earn'. */
function moduleFolders(): string[] {
  return ['domains', 'gateways'].flatMap((top) =>
    fs
      .readdirSync(path.join(SRC, top), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${top}/${d.name}`),
  );
}

describe('the module list', () => {
  it('has each domain and gateway folder once, each with its module file', () => {
    const folders = moduleFolders();
    expect(folders.length).toBeGreaterThan(20);
    for (const f of folders) expect(fs.existsSync(path.join(SRC, f, `${path.basename(f)}.module.ts`)), f).toBe(true);
    const names = DOMAINS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(['health', ...folders.map((f) => path.basename(f))].sort());
  });

  it('orders the modules: each after those its after names, health first, the domains, then the gateways, the Binance API last', () => {
    const names = DOMAINS.map((m) => m.name);
    expect(names[0]).toBe('health');
    expect(names.slice(-2)).toEqual(['ws', 'binance']);
    for (const [i, m] of DOMAINS.entries()) for (const a of m.after ?? []) expect(names.indexOf(a), `${m.name} after ${a}`).toBeLessThan(i);
    // the services the others read at once are built before them
    expect(names.indexOf('verification')).toBeLessThan(names.indexOf('member'));
    expect(names.indexOf('member')).toBeLessThan(names.indexOf('security'));
    expect(names.indexOf('payment')).toBeLessThan(names.indexOf('otc'));
  });

  it('orderModules: by name when free, after the named modules, refusing an unknown name or a circle', () => {
    const m = (name: string, ...after: string[]) => ({ name, after });
    expect(orderModules([m('c'), m('a', 'd'), m('b'), m('d')]).map((x) => x.name)).toEqual(['b', 'c', 'd', 'a']);
    expect(orderModules([m('b'), m('a')]).map((x) => x.name)).toEqual(['a', 'b']);
    expect(() => orderModules([m('a', 'nope')])).toThrow('module a: after names nope, which is no module');
    expect(() => orderModules([m('a', 'b'), m('b', 'a'), m('c')])).toThrow('modules a, b: their after lists make a circle');
  });

  it('building the context fails, naming both, when a create reads a service not built yet; a lazy read later passes', async () => {
    const early: DomainModule<{ later: number }, { early: () => number }> = { name: 'early', create: (ctx) => ({ early: () => ctx.later }) };
    const eager: DomainModule<{ later: number }, { eager: number }> = { name: 'eager', create: (ctx) => ({ eager: ctx.later }) };
    const later: DomainModule<object, { later: number }> = { name: 'later', create: () => ({ later: 7 }) };
    const ctx = await createDomainServices<{ early: () => number }>({}, [early, later]);
    expect(ctx.early()).toBe(7);
    await expect(createDomainServices({}, [eager, later])).rejects.toThrow(
      'module eager: its create read ctx.later, which no module before it provides (name that module in its after)',
    );
  });

  it('a module needing a service no module provides does not compile (its file checks it against the context)', () => {
    const needsNobody: DomainModule<PlatformContext & { nobody: string }> = { name: 'needs-nobody' };
    // @ts-expect-error: no module provides `nobody`, so AppContext does not meet the module's needs
    const checked = needsNobody satisfies DomainModule<AppContext>;
    expect(checked.name).toBe('needs-nobody');
  });

  it('registers every route plugin file, directly or through a registered routes file', async () => {
    // Each module's plugins, built on a stand-in context (a route factory keeps the services it is handed and calls
    // none). A route file is listed when they include its default export (the gateways' plugins) or a plugin named
    // after it (the domains' factories: the plugin a factory answers carries the factory's name).
    const modules: readonly DomainModule<AppContext>[] = DOMAINS;
    const stub = new Proxy({}, { get: () => ({}) }) as AppContext;
    const plugins = modules.flatMap((m) => routePluginsOf(m, stub));
    const listed = new Set<unknown>(plugins);
    const names = new Set(plugins.map((p) => p.name));
    const files = fs
      .readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.routes.ts'))
      .filter((f) => /^export default /m.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
    expect(files.length).toBeGreaterThan(35);
    const imports = (f: string) =>
      [...fs.readFileSync(path.join(SRC, f), 'utf8').matchAll(/from '(\.[^']+\.routes)'/g)].map((m) => path.join(path.dirname(f), `${m[1]}.ts`));
    await Promise.all(files.map(async (f) => ({ f, plugin: ((await import(path.join(SRC, f))) as { default: unknown }).default }))).then((mods) => {
      const isListed = (plugin: unknown) => listed.has(plugin) || (typeof plugin === 'function' && names.has(plugin.name));
      const registered = new Set(mods.filter((m) => isListed(m.plugin)).map((m) => path.normalize(m.f)));
      // Files registered by a registered routes file (the Binance gateway's spot, futures and stream routes, and the
      // spot trade routes under its spot routes), to any depth.
      for (let size = -1; size !== registered.size;) {
        size = registered.size;
        for (const f of [...registered]) for (const i of imports(f)) registered.add(path.normalize(i));
      }
      expect(files.map((f) => path.normalize(f)).filter((f) => !registered.has(f))).toEqual([]);
    });
  });

  it('quotes the savings module in ARCHITECTURE.md as it is', () => {
    const code = fs.readFileSync(path.join(SRC, 'domains', 'earn', 'earn.module.ts'), 'utf8');
    const quoted = /```ts\n(declare module '..\/..\/platform\/domain-module'[\s\S]*?)```/.exec(fs.readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8'));
    expect(quoted, 'ARCHITECTURE.md section 14 quotes earnModule').not.toBeNull();
    expect(code).toContain(quoted![1]!.trim());
  });
});
