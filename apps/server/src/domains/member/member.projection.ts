/**
 * The members' projection (platform/engine-host/projection.ts): the users row of every registerUser/updateUser, upserted
 * by id (the profile fields replaced, the registration time kept), and the audit record an operator's change carries
 * (the console's), written in the same batch as the row it changed.
 */
import { projectedTable } from '../../platform/db/projection-types';
import { users } from './member.tables';
import { AUDIT_TABLE, auditRow, type DomainProjection } from '../../platform/engine-host/projection';

/** users: the profile fields replaced on every change; `createdAt` is the registration's. */
export const USERS_TABLE = projectedTable(users, {
  key: ['id'],
  mode: 'upsert',
  set: ['uuid', 'mail', 'phone', 'areaCode', 'passwordHash', 'nickName', 'welCode', 'invitedBy', 'cardNo', 'cardState'],
  keepFirst: ['createdAt'],
});

/**
 * The users row of an engine user: the profile fields the member service stores (member.service.ts
 * `PROFILE_FIELDS`), `createdAt` from the registration command's time (no area code = 86).
 */
export function userRow(userId: string, p: Record<string, string>, createdTs: number): typeof users.$inferInsert {
  return {
    id: BigInt(userId),
    uuid: p.uuid ?? '',
    mail: p.mail ? p.mail : null,
    phone: p.phone ? p.phone : null,
    areaCode: p.areaCode || '86',
    passwordHash: p.passwordHash ?? '',
    nickName: p.nickName ?? '',
    welCode: p.welCode ?? '',
    invitedBy: p.invitedBy ? BigInt(p.invitedBy) : null,
    cardNo: p.cardNo ?? '',
    cardState: p.cardState ?? '',
    createdAt: new Date(createdTs),
  };
}

export const memberProjection: DomainProjection = {
  tables: [USERS_TABLE, AUDIT_TABLE],
  start: () => (seq, events, out) => {
    for (const ev of events) {
      if (ev.type === 'userRegistered') out.put(USERS_TABLE, userRow(ev.userId, ev.profile, ev.ts));
      else if (ev.type === 'userUpdated') {
        out.put(USERS_TABLE, userRow(ev.userId, ev.profile, ev.ts));
        if (ev.audit !== undefined) out.put(AUDIT_TABLE, auditRow(ev.userId, ev.audit, seq, ev.ts));
      }
    }
  },
};
