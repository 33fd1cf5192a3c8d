/**
 * Backup and restore of a data directory: the engine's snapshots, the journal, and the
 * database (the projection, plus sessions and the other rows that live only there).
 *
 * A backup is a directory:
 *   manifest.json        what is in it: format, time, database kind, every file with its size and SHA-256
 *   journal/             the journal segments and its recorded durable position (copied first), byte for byte
 *   journal-archive/     the journal's archive when there is one (JOURNAL_RETENTION=archive: the segments older than
 *                        the oldest kept snapshot, moved out of journal/; part of the history), byte for byte
 *   snapshots/           the engine snapshots
 *   uploads/             the users' images (identity documents, payment QR codes), byte for byte
 *   keys.enc             the key material, sealed under the operator's passphrase (key-backup.ts), never in the clear:
 *                        the hot-wallet signer's seed (SIGNER_SEED_FILE; without it the restored server cannot spend
 *                        the hot wallet nor sweep a deposit address) and the embedded mode's key of the secrets at
 *                        rest (DATA_DIR/secrets.key; without it bound authenticators cannot be read). A data directory
 *                        with key material is not backed up without a passphrase unless the operator says the keys
 *                        are kept elsewhere (`withoutKeys`). Backups before keys.enc held secrets.key in the clear;
 *                        they still restore.
 *   pglite/              the embedded database's files (PGlite), or
 *   database.sql         a pg_dump of the PostgreSQL database (plain SQL)
 *
 * Order matters (ARCHITECTURE.md section 3: the database is a projection of the journal and must never be ahead of
 * it): the database is dumped first, then the snapshots, then the journal, so the copy of the journal always
 * reaches at least as far as the database's projection cursor; within the journal, its recorded durable position
 * (durable-position.log) before the segments, so the copied segments always reach at least that position. A segment appended to while it is copied may end
 * in a torn record: the restored server drops it as it drops any torn tail (a backup is a point in time; what
 * came after the copy is not in it). The archive after the journal: a live server only moves segments from the journal
 * to the archive (copied into it before removed from the journal), so a segment gone from the journal by the time it is
 * copied is in the archive when the archive is copied. The copied journal keeps only the run of segments after the
 * last one found gone (the older ones are in the archive copy, or were deleted by JOURNAL_RETENTION=delete), and the
 * backup is refused (run it again) unless that journal, with the archive, starts at 1 or right after a copied snapshot
 * not newer than the newest one before the dump (so not ahead of the dumped database's cursor): with
 * JOURNAL_RETENTION=delete, a live server writing two snapshots during the backup could otherwise leave no snapshot the
 * restored journal continues.
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
import { dataDirHolder } from '../platform/engine-host/data-dir-lock';
import { POSITION_FILE } from '../platform/engine-host/durable-position';
import { listSnapshots } from '../platform/engine-host/snapshot-store';
import { listSegments } from '../platform/engine-host/journal';
import { nodeFs } from '../platform/engine-host/node-fs';
import { openKeys, sealKeys, sealedRoles, type KeyFile, type KeyRole } from './key-backup';

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
  /** The key files sealed in keys.enc (none: the operator keeps the keys elsewhere); absent in older backups. */
  keys?: KeyRole[];
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
  /** The signer's seed file (SIGNER_SEED_FILE; default DATA_DIR/wallet-seed.key). */
  signerSeedFile?: string | undefined;
  /** The passphrase the key material is sealed under (at least 12 characters). */
  passphrase?: string | undefined;
  /** True: back up without the key material (the operator keeps the seed and the secrets key elsewhere). */
  withoutKeys?: boolean;
  /** The journal's archive (JOURNAL_ARCHIVE_DIR; default DATA_DIR/journal-archive), copied as `journal-archive/` when present. */
  journalArchiveDir?: string | undefined;
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
  /** Where the signer's seed is restored (SIGNER_SEED_FILE; default DATA_DIR/wallet-seed.key). */
  signerSeedFile?: string | undefined;
  /** The passphrase of the backup's keys.enc (required when it has one). */
  passphrase?: string | undefined;
  /**
   * Where the backup's `journal-archive/` goes (JOURNAL_ARCHIVE_DIR; default DATA_DIR/journal-archive); outside the
   * data directory it must be missing or empty too.
   */
  journalArchiveDir?: string | undefined;
}

const KEYS_FILE = 'keys.enc';
/** The default signer seed file name under the data directory (platform/config/env.ts SIGNER_SEED_FILE). */
const SEED_FILE = 'wallet-seed.key';

/** The key files of a data directory that exist, with their paths. */
function keyFilesOf(dataDir: string, signerSeedFile: string | undefined): { role: KeyRole; file: string }[] {
  const all: { role: KeyRole; file: string }[] = [
    { role: 'signer-seed', file: signerSeedFile ?? path.join(dataDir, SEED_FILE) },
    { role: 'secrets-key', file: path.join(dataDir, KEY_FILE) },
  ];
  return all.filter((k) => fs.existsSync(k.file));
}

/** Writes `bytes` to `file` (mode 0600, fsynced); refuses to replace a different existing file. */
function writeKeyFile(file: string, bytes: Buffer): void {
  if (fs.existsSync(file)) {
    if (fs.readFileSync(file).equals(bytes)) return;
    throw new Error(`${file} exists and holds another key: refusing to replace it (move it away to restore this backup's)`);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes, { flag: 'wx', mode: 0o600 });
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const MANIFEST = 'manifest.json';
/** The archive's folder in a backup (and its default place in a data directory). */
const ARCHIVE = 'journal-archive';

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
 * then snapshots, then the journal, then its archive (module comment), the key material sealed under `opts.passphrase`. Returns the
 * manifest written. Throws (before writing anything) when `out` is not empty, the data directory has no journal, or it
 * holds key material and neither a passphrase (of at least 12 characters) nor `withoutKeys` is given, or a live server
 * holds the data directory's lock (data-dir-lock.ts) while its database is PGlite; when pg_dump fails; after copying,
 * when the copied journal and archive do not reach back to a usable copied snapshot (`checkJournalReach`).
 */
export async function backupDataDir(opts: BackupOptions): Promise<BackupManifest> {
  const journalDir = path.join(opts.dataDir, 'journal');
  if (filesUnder(journalDir).length === 0) throw new Error(`${journalDir} has no journal segments: nothing to back up`);
  const holder = opts.databaseUrl ? null : dataDirHolder(opts.dataDir);
  if (holder !== null && fs.existsSync(path.join(opts.dataDir, 'pglite')))
    throw new Error(
      `the server (pid ${holder.pid} on ${holder.hostname}) is running on ${opts.dataDir}: stop it first (PGlite is one process's database; a copy of it while it writes may not open)`,
    );
  const keyFiles = opts.withoutKeys === true ? [] : keyFilesOf(opts.dataDir, opts.signerSeedFile);
  if (keyFiles.length > 0 && !opts.passphrase)
    throw new Error(
      `the data directory holds key material (${keyFiles.map((k) => path.basename(k.file)).join(', ')}): give a passphrase ` +
        '(BACKUP_PASSPHRASE or --passphrase-file) to back it up sealed, or --without-keys if you keep the keys elsewhere',
    );
  // sealed first: a short passphrase is refused before anything is written
  const sealed =
    keyFiles.length > 0
      ? sealKeys(
          keyFiles.map((k): KeyFile => ({ role: k.role, bytes: fs.readFileSync(k.file) })),
          opts.passphrase!,
        )
      : null;
  emptyDir(opts.out, 'backup directory');
  // The newest snapshot before the dump: the dumped database's cursor is at least its sequence number.
  const newestBeforeDump = (await listSnapshots(nodeFs, path.join(opts.dataDir, 'snapshots')))[0]?.seq ?? 0;
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
    const files = filesUnder(path.join(opts.dataDir, part));
    // The journal's recorded durable position before its segments: the copied segments then reach at least the
    // copied position (a copy taken the other way round could hold a position past its segments: a false loss).
    if (part === 'journal') files.sort((a, b) => Number(b === POSITION_FILE) - Number(a === POSITION_FILE));
    /** Journal segments copied since the last one found gone (moved to the archive or deleted meanwhile). */
    let run: string[] = [];
    for (const f of files) {
      if (f.endsWith('.tmp')) continue;
      try {
        copyDurably(path.join(opts.dataDir, part, f), path.join(opts.out, part, f));
      } catch (err) {
        if (part !== 'journal' || f === POSITION_FILE || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // Gone from the journal since it was listed: the segments copied before it are older still (retention goes
        // oldest first), so they leave the journal copy (they are in the archive's, or were deleted).
        for (const old of run) {
          fs.rmSync(path.join(opts.out, old));
          copied.splice(copied.indexOf(old), 1);
        }
        run = [];
        continue;
      }
      copied.push(path.join(part, f));
      if (part === 'journal' && f !== POSITION_FILE) run.push(path.join(part, f));
    }
    if (part === 'uploads' && sealed !== null) {
      fs.writeFileSync(path.join(opts.out, KEYS_FILE), sealed, { mode: 0o600 });
      copied.push(KEYS_FILE);
    }
  }
  const archiveDir = opts.journalArchiveDir ?? path.join(opts.dataDir, ARCHIVE);
  for (const f of filesUnder(archiveDir)) {
    if (f.endsWith('.tmp')) continue;
    copyDurably(path.join(archiveDir, f), path.join(opts.out, ARCHIVE, f));
    copied.push(path.join(ARCHIVE, f));
  }
  await checkJournalReach(opts.out, newestBeforeDump);
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database,
    dirs: dirsUnder(opts.out),
    files: copied.map((p) => ({ path: p, bytes: fs.statSync(path.join(opts.out, p)).size, sha256: sha256(path.join(opts.out, p)) })),
    keys: keyFiles.map((k) => k.role),
  };
  fs.writeFileSync(path.join(opts.out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Throws unless the journal copied into backup `out` (its archive's segments first) starts at 1, or right after a
 * copied snapshot not newer than `newestBeforeDump` (module comment): else no snapshot of the backup would be
 * continued by its journal.
 */
async function checkJournalReach(out: string, newestBeforeDump: number): Promise<void> {
  const journal = await listSegments(nodeFs, path.join(out, 'journal'));
  const archived = await listSegments(nodeFs, path.join(out, ARCHIVE));
  const first = Math.min(archived[0]?.start ?? Infinity, journal[0]?.start ?? Infinity);
  if (first === Infinity || first === 1) return;
  const snapshots = (await listSnapshots(nodeFs, path.join(out, 'snapshots'))).map((s) => s.seq);
  if (snapshots.some((seq) => seq <= newestBeforeDump && first <= seq + 1)) return;
  throw new Error(
    `the journal copied into ${out} starts at sequence ${first}, after every usable snapshot copied (${snapshots.join(', ') || 'none'}): ` +
      'its older segments were pruned while the backup ran (JOURNAL_RETENTION=delete and new snapshots), or are missing. Run the backup again.',
  );
}

/**
 * Restores the backup `opts.from` into the empty data directory `opts.dataDir` (and the dump into the empty
 * PostgreSQL database `opts.databaseUrl`). Checks every file against the manifest before writing anything.
 * The sealed keys are opened with `opts.passphrase` first and written with mode 0600 (the seed to `signerSeedFile`).
 * The backup's `journal-archive/` goes to `opts.journalArchiveDir` (default DATA_DIR/journal-archive).
 * Throws, before writing anything, when a file is missing or differs, the target (or an archive directory outside it) is not empty, the backup has a
 * PostgreSQL dump but no database URL is given, or it has sealed keys and the passphrase is missing or wrong, or the
 * seed file outside the data directory holds another seed; when psql fails. Returns the manifest.
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
  // the keys are opened before anything is written: a missing or wrong passphrase changes nothing
  let keys: KeyFile[] = [];
  if (manifest.files.some((f) => f.path === KEYS_FILE)) {
    const text = fs.readFileSync(path.join(opts.from, KEYS_FILE), 'utf8');
    if (!opts.passphrase)
      throw new Error(`the backup holds the keys (${sealedRoles(text).join(', ')}) sealed: give its passphrase (BACKUP_PASSPHRASE or --passphrase-file)`);
    keys = openKeys(text, opts.passphrase);
  }
  const seedFile = opts.signerSeedFile ?? path.join(opts.dataDir, SEED_FILE);
  const seed = keys.find((k) => k.role === 'signer-seed');
  if (seed !== undefined && fs.existsSync(seedFile) && !fs.readFileSync(seedFile).equals(seed.bytes))
    throw new Error(`${seedFile} exists and holds another seed: refusing to replace it (move it away to restore this backup's)`);
  const archiveDir = opts.journalArchiveDir ?? path.join(opts.dataDir, ARCHIVE);
  const archiveOutside = path.relative(opts.dataDir, archiveDir).startsWith('..') || path.isAbsolute(path.relative(opts.dataDir, archiveDir));
  const hasArchive = manifest.files.some((f) => f.path.startsWith(`${ARCHIVE}${path.sep}`));
  if (hasArchive && archiveOutside && fs.existsSync(archiveDir) && fs.readdirSync(archiveDir).length > 0)
    throw new Error(`journal archive ${archiveDir} is not empty: refusing to overwrite it`);
  emptyDir(opts.dataDir, 'data directory');
  for (const d of manifest.dirs ?? []) fs.mkdirSync(path.join(opts.dataDir, d), { recursive: true });
  for (const f of manifest.files) {
    if (f.path === 'database.sql' || f.path === KEYS_FILE) continue;
    const to = f.path.startsWith(`${ARCHIVE}${path.sep}`) ? path.join(archiveDir, f.path.slice(ARCHIVE.length + 1)) : path.join(opts.dataDir, f.path);
    copyDurably(path.join(opts.from, f.path), to);
  }
  for (const k of keys) writeKeyFile(k.role === 'signer-seed' ? seedFile : path.join(opts.dataDir, KEY_FILE), k.bytes);
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
