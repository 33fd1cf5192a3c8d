/**
 * Child process of the journal-replay benchmark: starts the real engine host on DATA_DIR (written by
 * generate.ts, no snapshot) and reports how long recovery took (genesis + replay of every journal
 * record, the projection cursor already at the end). Then, untimed, reads and parses the same journal
 * into memory and times a fresh in-memory Engine executing those commands: the raw execute rate the
 * replay is compared with. Exits without closing the host (no snapshot). Usage: recover.ts <dataDir>
 */
import path from 'node:path';
import { decodeCommand, Engine, type Command } from '@exchange/core';
import { openDb } from '../../../apps/server/src/platform/db/client';
import { projectionCursor } from '../../../apps/server/src/platform/db/schema/projection-cursor';
import { nodeFs } from '../../../apps/server/src/platform/engine-host/node-fs';
import { createEngineHost } from '../../../apps/server/src/platform/engine-host/engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../../../apps/server/src/main/domains';
import { readJournal } from '../../../apps/server/src/platform/engine-host/journal';
import { maybeGc } from '../report';
import { emitResult, replayConfig, silentLog } from './common';

const [dataDir] = process.argv.slice(2);
if (dataDir === undefined) throw new Error('usage: recover.ts <dataDir>');

async function main(): Promise<void> {
  const config = replayConfig(dataDir as string);
  const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: config.dataDir });
  const cursorRows = await db.db.select().from(projectionCursor);
  const cursor = cursorRows.find((r) => r.name === 'spot')?.seq ?? 0;
  maybeGc();
  const t0 = performance.now();
  const host = await createEngineHost({ config, db: db.db, log: silentLog, projections: PROJECTIONS, machines: MACHINES });
  const wallMs = performance.now() - t0;
  const { replayed, snapshotSeq, ms } = host.recovery;
  const hash = host.engine.stateHash();

  // The parts of recovery, timed separately on the same journal: read (framing, checksums) and parse.
  const tr = performance.now();
  const read = await readJournal(nodeFs, path.join(config.dataDir, 'journal'), 0, { truncate: false });
  const readMs = performance.now() - tr;
  const tp = performance.now();
  const cmds: Command[] = read.records.map((r) => decodeCommand(r.body));
  const parseMs = performance.now() - tp;
  const engine = new Engine({ machines: MACHINES });
  maybeGc();
  const t1 = performance.now();
  for (const c of cmds) engine.execute(c);
  const rawMs = performance.now() - t1;
  const same = engine.stateHash() === hash ? 'yes' : 'no';
  emitResult({ cursor, replayed, snapshotSeq, recoveryMs: ms, wallMs, rawCommands: cmds.length, rawMs, readMs, parseMs, sameStateHash: same });
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
