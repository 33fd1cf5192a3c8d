/**
 * The operator's backup tool (docs/operations.md; backup.ts does the work):
 *
 *   npm run backup -- <backup dir> [--data-dir DIR]
 *       Copies the database (PGlite files, or pg_dump of DATABASE_URL), the snapshots and the journal of the data
 *       directory into <backup dir> (new or empty), with a manifest of SHA-256 sums. PGlite: stop the server first.
 *   npm run restore -- <backup dir> [--data-dir DIR]
 *       Restores it into an empty data directory (and an empty PostgreSQL database at DATABASE_URL when the backup
 *       holds a dump). Start the server on it: it recovers to the state of the backup.
 *
 * The data directory is --data-dir, else DATA_DIR, else ./data; DATABASE_URL as the server reads it (platform/config/env.ts).
 * Exit 0 on success, 1 on a usage error or a failure (the message says which).
 */
import path from 'node:path';
import { loadConfig } from '../platform/config/env';
import { backupDataDir, restoreDataDir } from './backup';
import { runAsMain } from './run-main';

const USAGE = ['usage: npm run backup -- <backup dir> [--data-dir DIR]', '       npm run restore -- <backup dir> [--data-dir DIR]'].join('\n');

/** Where the CLI writes; tests pass their own. */
export interface BackupCliIo {
  out(line: string): void;
  err(line: string): void;
  /** Configuration when not the process's (data directory and DATABASE_URL). */
  config?: () => { dataDir: string; databaseUrl: string | undefined };
}

/** Runs `backup <dir>` or `restore <dir>`; returns the exit code. Never calls process.exit. */
export async function main(argv: string[], io: BackupCliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const [command, ...rest] = argv;
  let dataDir: string | undefined;
  let dir: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--data-dir' || a.startsWith('--data-dir=')) {
      dataDir = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++i];
    } else if (!a.startsWith('-') && dir === undefined) {
      dir = a;
    } else {
      io.err(`unexpected argument ${a}\n${USAGE}`);
      return 1;
    }
  }
  if ((command !== 'backup' && command !== 'restore') || dir === undefined || dataDir === '') {
    io.err(USAGE);
    return 1;
  }
  const config = (io.config ?? (() => loadConfig()))();
  const target = path.resolve(dataDir ?? config.dataDir);
  try {
    if (command === 'backup') {
      const m = await backupDataDir({ dataDir: target, out: path.resolve(dir), databaseUrl: config.databaseUrl });
      const bytes = m.files.reduce((n, f) => n + f.bytes, 0);
      io.out(`backup of ${target} in ${path.resolve(dir)}: ${m.files.length} files, ${bytes} bytes, database: ${m.database}`);
    } else {
      const m = await restoreDataDir({ from: path.resolve(dir), dataDir: target, databaseUrl: config.databaseUrl });
      io.out(
        `restored ${path.resolve(dir)} (taken ${m.createdAt}) into ${target}${m.database === 'postgres' ? ' and DATABASE_URL' : ''}: start the server on it`,
      );
    }
    return 0;
  } catch (err) {
    io.err(`${command} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

runAsMain(import.meta.url, main);
