/**
 * Tidy: repository-wide rules that a reviewer would otherwise have to remember (TigerBeetle's tidy.zig).
 * Fails on float parsing or a clock/randomness in the core, float parsing in the money paths of the server,
 * leftover `.only` or FIXME, an engine reject code without zh+en messages, zh/en locale keys that differ, a hand-made
 * decimal converter outside the money module, and a savings domain that spreads beyond its folders.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './packages/api/src/errors';
import { REJECT_CODES } from './packages/core/src/types';

const root = import.meta.dirname;

function files(dir: string, exts: string[]): string[] {
  const abs = path.join(root, dir);
  // A folder that is gone (moved) fails loudly: a rule over no files would pass without checking anything.
  if (!fs.existsSync(abs)) throw new Error(`tidy: no folder ${dir}`);
  const out: string[] = [];
  for (const entry of fs.readdirSync(abs, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (full.includes('node_modules') || full.includes(`${path.sep}dist${path.sep}`)) continue;
    if (exts.some((e) => entry.name.endsWith(e))) out.push(full);
  }
  return out;
}

function offenders(list: string[], pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const f of list) {
    fs.readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) hits.push(`${path.relative(root, f)}:${i + 1}: ${line.trim()}`);
      });
  }
  return hits;
}

const isTest = (f: string) => /\.test\.tsx?$/.test(f) || f.includes(`${path.sep}test${path.sep}`);

describe('tidy', () => {
  it('the core and the money module have no float parsing, clock or randomness', () => {
    const core = ['packages/core/src', 'packages/money/src'].flatMap((d) => files(d, ['.ts'])).filter((f) => !isTest(f));
    expect(core.length).toBeGreaterThan(0);
    expect(offenders(core, /parseFloat\(|Number\(|Math\.random|Date\.now|new Date\(|process\./)).toEqual([]);
  });

  it('the server money paths never parse floats', () => {
    const money = ['apps/server/src/domains', 'apps/server/src/gateways', 'apps/server/src/platform/engine-host', 'packages/api/src'].flatMap((d) =>
      files(d, ['.ts']),
    );
    expect(
      offenders(
        money.filter((f) => !isTest(f)),
        /parseFloat\(|\.toFixed\(/,
      ),
    ).toEqual([]);
  });

  it('decimal strings and integer units are converted only by the money module (packages/money)', () => {
    // A hand-made converter pads or cuts digits by a scale: "units.toString().padStart(decimals + 1, '0')",
    // "frac.padEnd(decimals, '0')", "'0'.repeat(scale)". The independent models of the core's adversary, risk and
    // property tests keep their own arithmetic on purpose (ARCHITECTURE.md section 5) and use no such padding.
    const converter =
      /\.padStart\([^)]*([dD]ecimals|[sS]cale|\bdp?\b)[^)]*,\s*'0'\)|\.padEnd\([^)]*([dD]ecimals|[sS]cale|\bd\b)[^)]*,\s*'0'\)|'0'\.repeat\([^)]*([dD]ecimals|[sS]cale|\bd\b)/;
    // Display padding of a decimal string already formatted (no integer units): the web app's minimum decimals.
    const display = new Set(['apps/web/src/shared/format/format.ts']);
    const code = ['packages', 'apps/server/src', 'apps/server/test', 'apps/server/scripts', 'apps/web/src', 'apps/admin/src', 'e2e', 'bench', 'scripts']
      .flatMap((d) => files(d, ['.ts', '.tsx', '.mjs']))
      .filter(
        (f) => !path.relative(root, f).startsWith(`packages${path.sep}money${path.sep}`) && !display.has(path.relative(root, f).split(path.sep).join('/')),
      );
    expect(code.length).toBeGreaterThan(500);
    expect(offenders(code, converter)).toEqual([]);
  });

  it('the savings domain (the worked example of ARCHITECTURE.md section 14) lives in its five folders', () => {
    // Its own five places: the engine machine, the wire schemas, the server domain, the web feature, the console page.
    const own = [
      'packages/core/src/earn/',
      'packages/api/src/earn.ts',
      'apps/server/src/domains/earn/',
      'apps/web/src/features/earn/',
      'apps/admin/src/features/earn/',
    ];
    const isOwn = (rel: string) => own.some((o) => rel === o || rel.startsWith(o));
    const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
    const readers = new Set<string>();
    for (const f of ['packages', 'apps/server/src', 'apps/server/test', 'apps/web/src', 'apps/admin/src', 'e2e', 'bench', 'scripts'].flatMap((d) =>
      files(d, ['.ts', '.tsx']),
    )) {
      if (isOwn(rel(f))) continue;
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
        const target = rel(path.resolve(path.dirname(f), m[1]!));
        if (isOwn(`${target}/`) || isOwn(`${target}.ts`) || isOwn(target)) readers.add(rel(f));
      }
    }
    expect([...readers].sort()).toEqual([
      'apps/server/src/domains/demo/demo-clock-jobs.test.ts', // the demo clock's test runs the savings jobs on its clock
      // The api's index, in the api's folder beside the savings' schemas. The core's root names it nowhere (its
      // machine is given to the engine by the server's module, its types merged into the root's: machine.ts), and the
      // server finds its module and tables files by folder (main/ names no domain).
      'packages/api/src/index.ts',
      // The core's tests across machines: every machine's rejection codes, the colluding accounts against an
      // independent model, the router's test.
      'packages/core/src/reject-codes.test.ts',
      'packages/core/test/adversary/earn.adversary.test.ts',
      'packages/core/test/earn-fixture.ts',
      'packages/core/test/router.test.ts',
    ]);
  });

  it('a machine given by its host (the tips example of ARCHITECTURE.md section 14) is named by no file outside its folder', () => {
    // Its commands, events, rejection code and reads join the core's by declaration merging (packages/core/src/machine.ts),
    // so neither the core's root nor any other file imports it: a new domain's machine leaves the root as it is.
    const own = 'packages/core/test/example-machine/';
    const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
    const readers = new Set<string>();
    for (const f of ['packages', 'apps/server/src', 'apps/server/test', 'apps/web/src', 'apps/admin/src', 'e2e', 'bench', 'scripts'].flatMap((d) =>
      files(d, ['.ts', '.tsx']),
    )) {
      if (rel(f).startsWith(own)) continue;
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
        if (`${rel(path.resolve(path.dirname(f), m[1]!))}/`.startsWith(own)) readers.add(rel(f));
      }
    }
    expect(fs.readFileSync(path.join(root, own, 'tips-machine.ts'), 'utf8')).toMatch(/declare module '\.\.\/\.\.\/src\/types'/);
    expect([...readers]).toEqual([]);
  });

  it('no leftover .only or FIXME', () => {
    const all = ['packages', 'apps/server/src', 'apps/server/test', 'apps/web/src', 'e2e', 'bench'].flatMap((d) => files(d, ['.ts', '.tsx']));
    expect(offenders(all, /\b(it|test|describe)\.only\(|FIXME/)).toEqual([]);
  });

  it('every engine reject code has a message in zh and en', () => {
    const messages = ERROR_MESSAGES as Record<string, { zh: string; en: string }>;
    for (const code of [...REJECT_CODES, 'SYS.0015']) {
      expect(messages[code]?.zh, code).toBeTruthy();
      expect(messages[code]?.en, code).toBeTruthy();
    }
    for (const [code, m] of Object.entries(messages)) {
      expect(m.zh.length, code).toBeGreaterThan(0);
      expect(m.en.length, code).toBeGreaterThan(0);
    }
  });

  it('zh and en locale files have the same keys', () => {
    const keys = (obj: unknown, prefix = ''): string[] =>
      obj && typeof obj === 'object' ? Object.entries(obj as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k)) : [prefix];
    // src/locales/en and each feature's locales/en (apps/web/src/shared/i18n/i18n.ts).
    const en = files('apps/web/src', ['.json']).filter((f) => f.includes(`${path.sep}locales${path.sep}en${path.sep}`));
    expect(en.length).toBeGreaterThan(0);
    for (const f of en) {
      const zhFile = f.replace(`${path.sep}en${path.sep}`, `${path.sep}zh${path.sep}`);
      expect(fs.existsSync(zhFile), zhFile).toBe(true);
      const a = keys(JSON.parse(fs.readFileSync(f, 'utf8'))).sort();
      const b = keys(JSON.parse(fs.readFileSync(zhFile, 'utf8'))).sort();
      expect(b, path.relative(root, zhFile)).toEqual(a);
    }
  });
});
