/**
 * The activities' projection (platform/engine-host/projection.ts): an operator's activity action (create, end) carries
 * its audit record, written to the audit log in the same batch. Activities themselves have no table (they are read
 * from the engine).
 */
import { AUDIT_TABLE, auditRow, type DomainProjection } from '../../platform/engine-host/projection';

export const activityProjection: DomainProjection = {
  tables: [AUDIT_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) if (ev.type === 'activityChanged' && ev.audit !== undefined) out.put(AUDIT_TABLE, auditRow('', ev.audit, seq, ev.ts));
  },
};
