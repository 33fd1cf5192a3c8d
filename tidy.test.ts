/**
 * Tidy: repository-wide rules that a reviewer would otherwise have to remember (TigerBeetle's tidy.zig).
 * Fails on float parsing or a clock/randomness in the core, float parsing in the money paths of the server,
 * leftover `.only` or FIXME, an engine reject code without zh+en messages, and zh/en locale keys that differ.
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

  it('the web app keeps its layers: shared -> features -> app, and features never import each other', () => {
    const webSrc = path.join(root, 'apps/web/src');
    const violations: string[] = [];
    for (const f of files('apps/web/src', ['.ts', '.tsx'])) {
      const rel = path.relative(webSrc, f).split(path.sep);
      const [layer, feature] = rel;
      for (const m of fs.readFileSync(f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
        const target = path.relative(webSrc, path.resolve(path.dirname(f), m[1]!)).split(path.sep);
        const [tLayer, tFeature] = target;
        const bad =
          (layer === 'shared' && (tLayer === 'features' || tLayer === 'app')) ||
          (layer === 'features' && (tLayer === 'app' || (tLayer === 'features' && tFeature !== feature)));
        if (bad) violations.push(`${rel.join('/')} imports ${m[1]}`);
      }
    }
    expect(violations).toEqual([]);
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
