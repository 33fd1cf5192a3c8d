/**
 * The operator's backup tool (docs/operations.md; backup.ts does the work):
 *
 *   npm run backup -- <backup dir> [--data-dir DIR] [--passphrase-file FILE | --without-keys]
 *       Copies the database (PGlite files, or pg_dump of DATABASE_URL), the snapshots and the journal of the data
 *       directory into <backup dir> (new or empty), with a manifest of SHA-256 sums, and the key material (the wallet
 *       signer's seed, the secrets key) sealed under the passphrase in keys.enc. PGlite: stop the server first.
 *   npm run restore -- <backup dir> [--data-dir DIR] [--passphrase-file FILE]
 *       Restores it into an empty data directory (and an empty PostgreSQL database at DATABASE_URL when the backup
 *       holds a dump), the keys opened with the passphrase. Start the server on it: it recovers to the state of the
 *       backup, with the same wallet.
 *
 * The data directory is --data-dir, else DATA_DIR, else ./data; DATABASE_URL, SIGNER_SEED_FILE and JOURNAL_ARCHIVE_DIR
 * as the server reads them (platform/config/env.ts). The passphrase is the first line of --passphrase-file, else BACKUP_PASSPHRASE.
 * Exit 0 on success, 1 on a usage error or a failure (the message says which).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../platform/config/env';
import { backupDataDir, restoreDataDir } from './backup';
import { runAsMain } from './run-main';

const USAGE = [
  'usage: npm run backup -- <backup dir> [--data-dir DIR] [--passphrase-file FILE | --without-keys]',
  '       npm run restore -- <backup dir> [--data-dir DIR] [--passphrase-file FILE]',
  '       (the passphrase: the first line of --passphrase-file, else the BACKUP_PASSPHRASE variable)',
].join('\n');

/** Where the CLI writes; tests pass their own. */
export interface BackupCliIo {
  out(line: string): void;
  err(line: string): void;
  /** Configuration when not the process's (data directory, DATABASE_URL, SIGNER_SEED_FILE). */
  config?: () => { dataDir: string; databaseUrl: string | undefined; signerSeedFile?: string | undefined; journalArchiveDir?: string | undefined };
  /** The environment the passphrase is read from (BACKUP_PASSPHRASE) when not the process's. */
  env?: Record<string, string | undefined>;
}

/** Runs `backup <dir>` or `restore <dir>`; returns the exit code. Never calls process.exit. */
export async function main(argv: string[], io: BackupCliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const [command, ...rest] = argv;
  let dataDir: string | undefined;
  let dir: string | undefined;
  let passphraseFile: string | undefined;
  let withoutKeys = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--data-dir' || a.startsWith('--data-dir=')) {
      dataDir = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++i];
    } else if (a === '--passphrase-file' || a.startsWith('--passphrase-file=')) {
      passphraseFile = a.includes('=') ? a.slice(a.indexOf('=') + 1) : rest[++i];
    } else if (a === '--without-keys' && command === 'backup') {
      withoutKeys = true;
    } else if (!a.startsWith('-') && dir === undefined) {
      dir = a;
    } else {
      io.err(`unexpected argument ${a}\n${USAGE}`);
      return 1;
    }
  }
  if ((command !== 'backup' && command !== 'restore') || dir === undefined || dataDir === '' || passphraseFile === '' || (withoutKeys && passphraseFile)) {
    io.err(USAGE);
    return 1;
  }
  const config = (io.config ?? (() => loadConfig()))();
  const target = path.resolve(dataDir ?? config.dataDir);
  // SIGNER_SEED_FILE follows --data-dir unless it was set on its own (env.ts: default DATA_DIR/wallet-seed.key)
  const seedFile =
    config.signerSeedFile !== undefined && path.resolve(config.signerSeedFile) !== path.resolve(config.dataDir, 'wallet-seed.key')
      ? path.resolve(config.signerSeedFile)
      : undefined;
  // JOURNAL_ARCHIVE_DIR likewise: only when set on its own (its default is DATA_DIR/journal-archive)
  const archiveDir =
    config.journalArchiveDir !== undefined &&
    config.journalArchiveDir !== '' &&
    path.resolve(config.journalArchiveDir) !== path.resolve(config.dataDir, 'journal-archive')
      ? path.resolve(config.journalArchiveDir)
      : undefined;
  try {
    const passphrase =
      passphraseFile !== undefined ? (fs.readFileSync(passphraseFile, 'utf8').split(/\r?\n/)[0] ?? '') : (io.env ?? process.env).BACKUP_PASSPHRASE || undefined;
    if (command === 'backup') {
      const m = await backupDataDir({
        dataDir: target,
        out: path.resolve(dir),
        databaseUrl: config.databaseUrl,
        signerSeedFile: seedFile,
        journalArchiveDir: archiveDir,
        passphrase,
        withoutKeys,
      });
      const bytes = m.files.reduce((n, f) => n + f.bytes, 0);
      const keys = m.keys && m.keys.length > 0 ? `keys sealed: ${m.keys.join(', ')}` : 'no keys (keep the signer seed and the secrets key elsewhere)';
      io.out(`backup of ${target} in ${path.resolve(dir)}: ${m.files.length} files, ${bytes} bytes, database: ${m.database}, ${keys}`);
    } else {
      const m = await restoreDataDir({
        from: path.resolve(dir),
        dataDir: target,
        databaseUrl: config.databaseUrl,
        signerSeedFile: seedFile,
        journalArchiveDir: archiveDir,
        passphrase,
      });
      const keys = m.keys && m.keys.length > 0 ? `, keys restored: ${m.keys.join(', ')}` : '';
      io.out(
        `restored ${path.resolve(dir)} (taken ${m.createdAt}) into ${target}${m.database === 'postgres' ? ' and DATABASE_URL' : ''}${keys}: start the server on it`,
      );
      if (!m.keys || m.keys.length === 0)
        io.err('the backup holds no sealed keys: put the wallet signer seed (SIGNER_SEED_FILE) and secrets.key back before you start the server');
    }
    return 0;
  } catch (err) {
    io.err(`${command} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

runAsMain(import.meta.url, main);
