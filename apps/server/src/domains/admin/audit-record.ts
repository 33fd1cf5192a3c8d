/**
 * The audit record an engine command carries for an operator's action (updateUser, approveWithdrawal, ...): the
 * projector turns it into the audit_log row in the transaction of the projection (platform/engine-host/projection.ts auditRow).
 */

/**
 * The record: who (`actor` id and e-mail), `action`, `before` and `after` as JSON text, the request's IP (at most 64
 * characters) and browser (at most 256), plus `extra` fields (e.g. the target user).
 */
export function engineAuditRecord(
  actor: { id: bigint; email: string; ip: string; userAgent: string },
  action: string,
  before: unknown,
  after: unknown,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    operatorId: actor.id.toString(),
    operatorEmail: actor.email,
    action,
    before: JSON.stringify(before),
    after: JSON.stringify(after),
    ip: actor.ip.slice(0, 64),
    userAgent: actor.userAgent.slice(0, 256),
    ...extra,
  };
}
