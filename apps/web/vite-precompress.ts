// The build step shared by the web app's and the console's Vite configs (apps/web/vite.config.ts,
// apps/admin/vite.config.ts): .br and .gz files written beside the built text files, which the server sends as they
// are (apps/server/src/main/app.ts, @fastify/static preCompressed: Content-Encoding and Vary: Accept-Encoding), so no
// request pays for compressing a script.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zc, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Text files worth compressing ahead (smaller ones are sent as they are). */
const PRECOMPRESS_RE = /\.(js|mjs|css|html|svg|json)$/;
/** Files under this size, bytes, are sent as they are. */
const PRECOMPRESS_MIN_BYTES = 1024;

/** Lists the files under `dir`, recursively. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat();
}

/**
 * After the build, writes <file>.br (brotli, quality 11) and <file>.gz (gzip, level 9) beside every text
 * file of the output of at least 1 KB (the Vite manifest under .vite/ excepted); @fastify/static (preCompressed)
 * sends them to browsers that accept them.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'exchange-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await listFiles(outDir)).filter((f) => PRECOMPRESS_RE.test(f) && !f.includes(`${path.sep}.vite${path.sep}`));
      await Promise.all(
        files.map(async (f) => {
          const buf = await fs.readFile(f);
          if (buf.length < PRECOMPRESS_MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotliAsync(buf, { params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
            gzipAsync(buf, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${f}.br`, br), fs.writeFile(`${f}.gz`, gz)]);
        }),
      );
    },
  };
}
