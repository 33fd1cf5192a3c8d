/**
 * Backup and restore of a data directory: the engine's snapshots, the journal, and the
 * database (the projection, plus sessions and the other rows that live only there).
 *
 * A backup is a directory:
 *   manifest.json        what is in it: format, time, database kind, every file with its size and SHA-256
 *   journal/             the journal segments, byte for byte
 *   snapshots/           the engine snapshots
 *   uploads/             the users' images (identity documents, payment QR codes), byte for byte
 *   secrets.key          the embedded mode's key of the secrets at rest (TOTP secrets), when the data directory has
 *                        one (without it, a restored server cannot read bound authenticators: SECRETS_KEY deployments
 *                        keep their key outside the data directory and must keep it with the backup)
 *   pglite/              the embedded database's files (PGlite), or
 *   database.sql         a pg_dump of the PostgreSQL database (plain SQL)
 *
 * Order matters (ARCHITECTURE.md section 3: the database is a projection of the journal and must never be ahead of
 * it): the database is dumped first, then the snapshots, then the journal, so the copy of the journal always
 * reaches at least as far as the database's projection cursor. A segment appended to while it is copied may end
 * in a torn record: the restored server drops it as it drops any torn tail (a backup is a point in time; what
 * came after the copy is not in it).
 * PGlite is one process's database: back it up with the server stopped. PostgreSQL may be backed up live.
 *
 * Restore copies everything into an empty data directory (and, for PostgreSQL, loads the dump into an empty
 * database with psql), checking every file's SHA-256 first; the server then recovers as after any restart
 * (snapshot + journal replay), to the same state hash.
 */
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KEY_FILE } from '../platform/shared/secret-box';

/** One file of a backup: its path relative to the backup directory, size and SHA-256 (hex). */
export interface BackupFile {
  path: string;
  bytes: number;
  sha256: string;
}

/** manifest.json of a backup. */
export interface BackupManifest {
  format: 1;
  /** ISO time the backup was taken. */
  createdAt: string;
  /** Where the database part is: `pglite/` files, `database.sql` (PostgreSQL), or none (no database found). */
  database: 'pglite' | 'postgres' | 'none';
  files: BackupFile[];
  /** Every directory of the backup (relative), empty ones included: a PostgreSQL data directory needs them. */
  dirs: string[];
}

/** Options of `backupDataDir`. */
export interface BackupOptions {
  /** The server's data directory (journal/, snapshots/, pglite/). */
  dataDir: string;
  /** The backup directory to create; it must not exist or be empty. */
  out: string;
  /** PostgreSQL URL when the server runs on PostgreSQL (dumped with pg_dump); else the PGlite files are copied. */
  databaseUrl?: string | undefined;
  /** The pg_dump program (default `pg_dump` on PATH). */
  pgDump?: string;
}

/** Options of `restoreDataDir`. */
export interface RestoreOptions {
  /** The backup directory (written by `backupDataDir`). */
  from: string;
  /** The data directory to restore into; it must not exist or be empty. */
  dataDir: string;
  /** PostgreSQL URL of an empty database to load the dump into (required when the backup has database.sql). */
  databaseUrl?: string | undefined;
  /** The psql program (default `psql` on PATH). */
  psql?: string;
}

const MANIFEST = 'manifest.json';

/** Throws unless `dir` is missing or empty; creates it. */
function emptyDir(dir: string, what: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new Error(`${what} ${dir} is not empty: refusing to overwrite it`);
  fs.mkdirSync(dir, { recursive: true });
}

/** Every directory under `dir` (relative to it, `dir` itself excluded), sorted. */
function dirsUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isDirectory()).sort();
}

/** Every regular file under `dir`, as paths relative to `dir`, sorted (journal segments in sequence order). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Copies `from` to `to` and fsyncs it (the parent directories are created). */
function copyDurably(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  const fd = fs.openSync(to, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Runs `cmd args`, rejecting with its stderr when it exits non-zero. */
function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited ${code}: ${err.trim().slice(-2000)}`))));
  });
}

/**
 * Backs up `opts.dataDir` (and the PostgreSQL database at `opts.databaseUrl`) into `opts.out`: database first,
 * then snapshots, then journal (module comment). Returns the manifest written. Throws when `out` is not empty, the
 * data directory has no journal, or pg_dump fails.
 */
export async function backupDataDir(opts: BackupOptions): Promise<BackupManifest> {
  const journalDir = path.join(opts.dataDir, 'journal');
  if (filesUnder(journalDir).length === 0) throw new Error(`${journalDir} has no journal segments: nothing to back up`);
  emptyDir(opts.out, 'backup directory');
  const copied: string[] = [];
  let database: BackupManifest['database'] = 'none';
  if (opts.databaseUrl) {
    await run(opts.pgDump ?? 'pg_dump', [
      '--no-owner',
      '--no-privileges',
      '--format=plain',
      '--file',
      path.join(opts.out, 'database.sql'),
      '--dbname',
      opts.databaseUrl,
    ]);
    copied.push('database.sql');
    database = 'postgres';
  } else if (fs.existsSync(path.join(opts.dataDir, 'pglite'))) {
    for (const d of dirsUnder(path.join(opts.dataDir, 'pglite'))) fs.mkdirSync(path.join(opts.out, 'pglite', d), { recursive: true });
    for (const f of filesUnder(path.join(opts.dataDir, 'pglite'))) {
      copyDurably(path.join(opts.dataDir, 'pglite', f), path.join(opts.out, 'pglite', f));
      copied.push(path.join('pglite', f));
    }
    database = 'pglite';
  }
  // Images and the key before the journal: both only grow or stay, so anything the copied journal refers to is in.
  for (const part of ['uploads', 'snapshots', 'journal']) {
    for (const f of filesUnder(path.join(opts.dataDir, part))) {
      if (f.endsWith('.tmp')) continue;
      copyDurably(path.join(opts.dataDir, part, f), path.join(opts.out, part, f));
      copied.push(path.join(part, f));
    }
    if (part === 'uploads' && fs.existsSync(path.join(opts.dataDir, KEY_FILE))) {
      copyDurably(path.join(opts.dataDir, KEY_FILE), path.join(opts.out, KEY_FILE));
      copied.push(KEY_FILE);
    }
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    dirs: dirsUnder(opts.out),
    files: copied.map((p) => ({ path: p, bytes: fs.statSync(path.join(opts.out, p)).size, sha256: sha256(path.join(opts.out, p)) })),
  };
  fs.writeFileSync(path.join(opts.out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Restores the backup `opts.from` into the empty data directory `opts.dataDir` (and the dump into the empty
 * PostgreSQL database `opts.databaseUrl`). Checks every file against the manifest before writing anything.
 * Throws when a file is missing or differs, the target is not empty, or the backup has a PostgreSQL dump but no
 * database URL is given (or psql fails). Returns the manifest.
 */
export async function restoreDataDir(opts: RestoreOptions): Promise<BackupManifest> {
  const manifestFile = path.join(opts.from, MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new Error(`${opts.from} is not a backup (no ${MANIFEST})`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${manifestFile}: unknown backup format ${String(manifest.format)}`);
  for (const f of manifest.files) {
    const file = path.join(opts.from, f.path);
    if (!fs.existsSync(file)) throw new Error(`backup file ${f.path} is missing`);
    if (sha256(file) !== f.sha256) throw new Error(`backup file ${f.path} is damaged (SHA-256 differs from the manifest)`);
  }
  if (manifest.database === 'postgres' && !opts.databaseUrl)
    throw new Error('the backup holds a PostgreSQL dump: set DATABASE_URL to an empty database to restore it into');
  emptyDir(opts.dataDir, 'data directory');
  for (const d of manifest.dirs ?? []) fs.mkdirSync(path.join(opts.dataDir, d), { recursive: true });
  for (const f of manifest.files) {
    if (f.path === 'database.sql') continue;
    copyDurably(path.join(opts.from, f.path), path.join(opts.dataDir, f.path));
  }
  if (manifest.database === 'postgres') {
    await run(opts.psql ?? 'psql', [
      '--quiet',
      '--no-psqlrc',
      '-v',
      'ON_ERROR_STOP=1',
      '--file',
      path.join(opts.from, 'database.sql'),
      '--dbname',
      opts.databaseUrl!,
    ]);
  }
  return manifest;
}
