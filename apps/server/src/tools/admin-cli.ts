/**
 * The console's bootstrap tool: creates an operator without a console session.
 *
 *   npm run admin -- create-operator --email a@b.c --name N --role support|compliance|finance|admin [--data-dir DIR]
 *       Prints the generated password, the TOTP key and its otpauth:// URL once (scan it into an authenticator
 *       app); they are not stored in the clear anywhere. The row and its audit row ("cli") are one transaction.
 *
 * The database is the server's: DATABASE_URL, else the embedded PGlite under --data-dir / DATA_DIR / ./data (stop an
 * embedded server first: PGlite is one process's); the TOTP key is sealed with the server's secret box (SECRETS_KEY,
 * else <data dir>/secrets.key). Exit 0 on success, 1 on a usage error or a refusal (the message says which).
 */
import path from 'node:path';
import { loadConfig, type Config } from '../platform/config/env';
import { openDb } from '../platform/db/client';
import type { EnginePort } from '../platform/engine-port/engine-port';
import { createAdminService } from '../domains/admin/admin.service';
import { AppError } from '../platform/shared/errors';
import { secretBoxFromConfig } from '../platform/shared/secret-box';
import { runAsMain } from './run-main';

const USAGE = 'usage: npm run admin -- create-operator --email a@b.c --name NAME --role support|compliance|finance|admin [--data-dir DIR]';

/** Where the CLI writes; tests pass their own (and a configuration). */
export interface AdminCliIo {
  out(line: string): void;
  err(line: string): void;
  config?: () => Config;
}

/** The engine is not opened by this tool: creating an operator never touches it. */
const NO_ENGINE = new Proxy({} as EnginePort, {
  get() {
    throw new Error('admin-cli: the engine is not open in this tool');
  },
});

/** Runs the command; returns the exit code. Never calls process.exit. */
export async function main(argv: string[], io: AdminCliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const [command, ...rest] = argv;
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const m = /^--(email|name|role|data-dir)(?:=(.*))?$/.exec(a);
    const value = m ? (m[2] ?? rest[++i]) : undefined;
    if (!m || value === undefined) {
      io.err(`unexpected argument ${a}\n${USAGE}`);
      return 1;
    }
    opts[m[1]!] = value;
  }
  if (command !== 'create-operator' || !opts.email || !opts.name || !opts.role) {
    io.err(USAGE);
    return 1;
  }
  const base = (io.config ?? (() => loadConfig()))();
  const config = opts['data-dir'] ? { ...base, dataDir: path.resolve(opts['data-dir']) } : base;
  const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgliteTemplateDir: config.pgliteTemplateDir, worker: false });
  try {
    const admin = createAdminService({ db: handle.db, host: NO_ENGINE, box: secretBoxFromConfig(config) });
    const c = await admin.createOperator(null, { email: opts.email, name: opts.name, role: opts.role });
    io.out(`operator ${c.operator.email} (${c.operator.role}, id ${c.operator.id}) created. Shown once:`);
    io.out(`  password:  ${c.password}`);
    io.out(`  TOTP key:  ${c.totpSecret}`);
    io.out(`  otpauth:   ${c.otpauthUrl}`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`refused: ${err.code}${err.field ? ` (${err.field})` : ''}\n${USAGE}`);
      return 1;
    }
    throw err;
  } finally {
    await handle.close();
  }
}

runAsMain(import.meta.url, main);
