/**
 * Keeps the server part of ARCHITECTURE.md section 14's "Today" honest: a new domain touches its own folder under
 * domains/ and the composition root (main/), and nothing else of the server names it. Read from the source tree (every
 * .ts file under apps/server/src but the tests and their support files, parsed with the TypeScript parser), for every
 * folder under domains/, the files outside it that import from it are:
 * - main/ (the composition root: the table list, the app's session checks, the embedded server's demo accounts and
 *   chain; it finds the modules by folder and names none);
 * - the gateway files named in GATEWAY_READERS, exactly;
 * - the operator's tools named in TOOL_READERS, exactly;
 * - other domains' files through a type-only import of a `*.service.ts` file (a service port: how a module declares
 *   the services it needs, `Needs`), or through one of the imports listed in DOMAIN_EDGES, exactly: today's helpers,
 *   tables and guards one domain takes from another (section 14: a domain reads another's tables only downwards).
 *   A new domain has no entry there, so no other domain imports more of it than its service's type.
 * The platform imports no domain, and no file outside main/ reads the app's context (`app.ctx`, `req.server.ctx`). A
 * last case runs the scan over a throwaway tree with one bad import, so the test can
 * fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');

/** One import of a file under domains/ by a file outside that domain's folder. */
interface DomainImport {
  /** The importing file, relative to src ('domains/otc/otc.service.ts'). */
  from: string;
  /** The imported file without its extension, relative to src ('domains/kyc/kyc.service'). */
  to: string;
  /** The imported domain folder ('kyc'). */
  domain: string;
  /** True when only types are imported (`import type`, or every name marked `type`). */
  typeOnly: boolean;
}

/** A test or a test's support file (member-test-app.ts, kyc-test-support.ts, api-keys.test-keys.ts, binance.test-scope.ts). */
const isTestFile = (f: string) => /(^|[.-])test([.-]|$)/.test(path.basename(f, '.ts'));

/** The non-test .ts files under `root`, relative to it, with '/' separators. */
function sourceFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !isTestFile(f));
}

/** The relative imports of `text` (static, re-exports, dynamic and `import('...')` types), each with whether it is type-only. */
function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly =
        c !== undefined && (c.isTypeOnly || (c.name === undefined && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      out.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      out.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || (named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)) });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ spec: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out.filter((i) => i.spec.startsWith('.'));
}

/** Every import of a file under domains/<d>/ by a non-test file outside domains/<d>/, in the tree at `root`. */
function domainImports(root: string): DomainImport[] {
  const out: DomainImport[] = [];
  for (const from of sourceFiles(root)) {
    for (const i of importsOf(fs.readFileSync(path.join(root, from), 'utf8'))) {
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), i.spec)).replace(/\.(js|ts)$/, '');
      const domain = /^domains\/([^/]+)\//.exec(to)?.[1];
      if (domain === undefined || from.startsWith(`domains/${domain}/`)) continue;
      out.push({ from, to, domain, typeOnly: i.typeOnly });
    }
  }
  return out;
}

/** The folder of a domain file ('domains/otc/otc.service.ts' -> 'otc'); undefined outside domains/. */
const domainOf = (f: string) => /^domains\/([^/]+)\//.exec(f)?.[1];

/**
 * An import one domain makes of another's file beyond a service's type, as `<importing domain> -> <imported file>`
 * with ' (type)' when type-only. Today's list: a few helpers (index sources, reference overrides, demo seeds, image
 * checks, the demo merchant's payment method), and tables read downwards.
 */
const DOMAIN_EDGES = [
  'admin -> domains/member/member.tables',
  'content -> domains/admin/admin.repository (type)',
  'demo -> domains/asset/demo-faucet',
  'demo -> domains/market-jobs/reference-override',
  'demo -> domains/market-jobs/reference-override (type)',
  'demo -> domains/verification/outbox.repository',
  'invite -> domains/member/member.tables',
  'market-data -> domains/perp/perp.tables',
  'market-data -> domains/spot/spot.tables',
  'market-jobs -> domains/index-price/index-components',
  'market-jobs -> domains/index-price/index-sources.config',
  'market-jobs -> domains/index-price/live-index',
  'market-jobs -> domains/market-data/price-source (type)',
  'member -> domains/market-data/market-data.tables',
  'otc -> domains/payment/payment.repository',
  'support -> domains/admin/admin.tables',
  'wallet -> domains/admin/admin.tables',
  'wallet -> domains/market-data/seed/coins',
];

/** The gateway files that import each domain folder (the wire adapters over the domains: section 1). */
const GATEWAY_READERS: Record<string, string[]> = {
  'api-keys': [
    'gateways/binance/binance.auth.ts',
    'gateways/binance/binance.errors.ts',
    'gateways/binance/binance.hooks.ts',
    'gateways/binance/sapi.wallet.routes.ts',
    'gateways/binance/streams.routes.ts',
    'gateways/binance/streams.wsapi.trade.ts',
    'gateways/binance/streams.wsapi.ts',
  ],
  perp: ['gateways/binance/futures.repository.ts', 'gateways/binance/futures.routes.ts', 'gateways/binance/streams.user.ts'],
  spot: [
    'gateways/binance/spot.cancel-replace.ts',
    'gateways/binance/spot.format.ts',
    'gateways/binance/spot.oco.ts',
    'gateways/binance/spot.order.ts',
    'gateways/binance/spot.repository.ts',
    'gateways/binance/spot.trade.routes.ts',
  ],
  'market-data': [
    'gateways/binance/futures.format.ts',
    'gateways/binance/futures.routes.ts',
    'gateways/binance/spot.market.ts',
    'gateways/binance/spot.routes.ts',
    'gateways/binance/streams.hub.ts',
    'gateways/binance/streams.klines.ts',
    'gateways/binance/streams.names.ts',
    'gateways/ws/ws.hub.ts',
  ],
  'index-price': ['gateways/binance/futures.routes.ts'],
  'market-jobs': ['gateways/binance/futures.data.ts'],
  member: ['gateways/ws/ws.hub.ts'],
  wallet: ['gateways/binance/sapi.wallet.routes.ts', 'gateways/binance/spot.trade.routes.ts'],
};

/** The operator's command-line tools that import each domain folder (each builds what it runs, as main/ does). */
const TOOL_READERS: Record<string, string[]> = {
  admin: ['tools/admin-cli.ts'],
  spot: ['tools/fault-sim.ts'],
  member: ['tools/fault-sim.ts'],
};

/** The imports of `imports` that break the rule of the file comment, one line each, sorted (none: []). */
function violations(imports: readonly DomainImport[]): string[] {
  const out: string[] = [];
  const edges = new Set(DOMAIN_EDGES);
  for (const i of imports) {
    const top = i.from.split('/')[0];
    const line = `${i.from} imports ${i.to}${i.typeOnly ? ' (type)' : ''}`;
    if (top === 'main') continue;
    if (top === 'gateways') {
      if (!(GATEWAY_READERS[i.domain] ?? []).includes(i.from)) out.push(`${line}: a gateway file not in GATEWAY_READERS`);
    } else if (top === 'tools') {
      if (!(TOOL_READERS[i.domain] ?? []).includes(i.from)) out.push(`${line}: a tool not in TOOL_READERS`);
    } else if (top === 'domains') {
      if (i.typeOnly && i.to.endsWith('.service')) continue;
      if (!edges.has(`${domainOf(i.from)} -> ${i.to}${i.typeOnly ? ' (type)' : ''}`)) out.push(`${line}: another domain's file, not in DOMAIN_EDGES`);
    } else out.push(`${line}: ${top}/ imports no domain`);
  }
  return out.sort();
}

describe("the domain folders' importers (ARCHITECTURE.md section 14)", () => {
  const imports = domainImports(SRC);

  it('are main/, the named gateway files and tools, and other domains only through a service type or a listed import', () => {
    expect(imports.length).toBeGreaterThan(100);
    expect(violations(imports)).toEqual([]);
  });

  it('lists exactly what the code does today (no stale entry)', () => {
    const edges = new Set(
      imports
        .filter((i) => i.from.startsWith('domains/') && !(i.typeOnly && i.to.endsWith('.service')))
        .map((i) => `${domainOf(i.from)} -> ${i.to}${i.typeOnly ? ' (type)' : ''}`),
    );
    expect([...edges].sort()).toEqual([...DOMAIN_EDGES].sort());
    const readers = (top: string) => {
      const by: Record<string, Set<string>> = {};
      for (const i of imports.filter((x) => x.from.startsWith(`${top}/`))) (by[i.domain] ??= new Set()).add(i.from);
      return Object.fromEntries(Object.entries(by).map(([d, s]) => [d, [...s].sort()]));
    };
    expect(readers('gateways')).toEqual(GATEWAY_READERS);
    expect(readers('tools')).toEqual(TOOL_READERS);
  });

  it('main/domains.ts names no domain (it finds their modules by folder), and the platform imports no domain', () => {
    expect(imports.filter((i) => i.from === 'main/domains.ts').map((i) => i.to)).toEqual([]);
    expect(fs.readFileSync(path.join(SRC, 'main', 'domains.ts'), 'utf8')).toContain('import(`../domains/${d}/${d}.module.ts`)');
    expect(imports.filter((i) => i.from.startsWith('platform/')).map((i) => `${i.from} -> ${i.to}`)).toEqual([]);
  });

  it("only main/ reads the app's context (app.ctx)", () => {
    const readers = sourceFiles(SRC).filter(
      (f) => !f.startsWith('main/') && /\b(?:app|server|root|scope|instance)\.ctx\b/.test(fs.readFileSync(path.join(SRC, f), 'utf8')),
    );
    expect(readers).toEqual([]);
  });

  it('fails on a domain importing another domain beyond its service type (a throwaway tree)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-folders-'));
    try {
      const write = (f: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        fs.writeFileSync(path.join(root, f), text);
      };
      write('domains/alpha/alpha.service.ts', 'export interface AlphaService { n(): number }\nexport const ALPHA_LIMIT = 3;\n');
      write('domains/alpha/alpha.tables.ts', 'export const alphaRows = {};\n');
      write('domains/beta/beta.module.ts', "import type { AlphaService } from '../alpha/alpha.service';\nexport type Needs = { alpha: AlphaService };\n");
      write('domains/beta/beta.repository.ts', "import { alphaRows } from '../alpha/alpha.tables';\nexport const rows = alphaRows;\n");
      write(
        'domains/beta/beta.service.ts',
        "import { type AlphaService, ALPHA_LIMIT } from '../alpha/alpha.service';\nexport const n = (a: AlphaService) => a.n() + ALPHA_LIMIT;\n",
      );
      write('domains/beta/beta.format.ts', "export const f = async () => (await import('../alpha/alpha.tables')).alphaRows;\n");
      write('domains/beta/beta.api.test.ts', "import { alphaRows } from '../alpha/alpha.tables';\nvoid alphaRows;\n");
      write('main/domains.ts', "import '../domains/alpha/alpha.tables';\n");
      write('platform/shared/x.ts', "import type { AlphaService } from '../../domains/alpha/alpha.service';\nexport type X = AlphaService;\n");
      expect(violations(domainImports(root))).toEqual([
        "domains/beta/beta.format.ts imports domains/alpha/alpha.tables: another domain's file, not in DOMAIN_EDGES",
        "domains/beta/beta.repository.ts imports domains/alpha/alpha.tables: another domain's file, not in DOMAIN_EDGES",
        "domains/beta/beta.service.ts imports domains/alpha/alpha.service: another domain's file, not in DOMAIN_EDGES",
        'platform/shared/x.ts imports domains/alpha/alpha.service (type): platform/ imports no domain',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
