/** SQL of the demo outbox (table demo_outbox): codes "sent" by the demo sender. */
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { demoOutbox } from './verification.tables';

/** One outbox row as the API shows it (createdAt in Unix ms). */
export interface OutboxRow {
  account: string;
  /** Country calling code of a phone account ('86' for e-mail rows). */
  areaCode: string;
  type: string;
  code: string;
  createdAt: number;
}

/** Appends a message to the outbox. `account` is the normalised e-mail or the phone digits. */
export async function insertOutbox(db: Db, row: { account: string; areaCode: string; type: string; code: string; createdAt: Date }): Promise<void> {
  await db.insert(demoOutbox).values(row);
}

/** The newest `limit` messages for `account`, newest first. */
export async function listOutbox(db: Db, account: string, limit = 50): Promise<OutboxRow[]> {
  const rows = await db
    .select({ account: demoOutbox.account, areaCode: demoOutbox.areaCode, type: demoOutbox.type, code: demoOutbox.code, createdAt: demoOutbox.createdAt })
    .from(demoOutbox)
    .where(eq(demoOutbox.account, account))
    .orderBy(desc(demoOutbox.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime() }));
}
