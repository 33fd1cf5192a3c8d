/**
 * Proves that apps/server/src has no import circle, type-only imports included (a circle through a type still ties
 * the layers together: context.ts built the services and the services imported its `Hooks` type).
 * How: dpdm parses every .ts file under src with the TypeScript parser and lists the circles; the list must be
 * empty. A second case runs the same check on two throwaway files importing each other's types, so the test
 * can fail: a detector that missed type-only circles would pass the first case vacuously.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCircular, parseDependencyTree } from 'dpdm';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** The import circles among the .ts files under `dir` (paths relative to `dir`), type-only imports counted. */
async function circlesUnder(dir: string): Promise<string[][]> {
  const tree = await parseDependencyTree('**/*.ts', {
    context: dir,
    cwd: dir,
    transform: false, // keep `import type`: a circle through a type is still a circle of the layers
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
  // Only circles among the files under `dir`: an import that leads into another package (packages/core through a
  // relative path or a workspace link) is that package's own business.
  return parseCircular(tree)
    .map((c) => c.map((f) => path.relative(dir, path.resolve(dir, f))))
    .filter((c) => c.every((f) => !f.startsWith('..') && !path.isAbsolute(f)));
}

describe('import circles', () => {
  it('apps/server/src has none, type-only imports included', async () => {
    const circles = await circlesUnder(SRC);
    expect(circles.map((c) => c.join(' -> '))).toEqual([]);
  }, 120_000);

  it('the check finds a circle made only of type imports', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b?: B }\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
      const circles = await circlesUnder(dir);
      expect(circles.map((c) => [...c].sort())).toEqual([['a.ts', 'b.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
