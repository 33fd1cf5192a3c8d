/**
 * The console's operator, shared by every domain with console routes: who the operator is (`Actor`, with the
 * request's origin for the audit log), what each role may do (`can`: the table is packages/api ROLE_PERMISSIONS,
 * shared with the console, which hides what a role cannot do), the guard of every console route but login
 * (`requireOperator(permission)`, built over the admin service's `authenticate` and decorated on the app by
 * main/app.ts), the request's operator (`actorOf`) and the audit record an engine command carries for an operator's
 * action (`engineAuditRecord`: the projector turns it into the audit_log row in the projection's transaction,
 * platform/engine-host/projection.ts auditRow).
 *
 * The guard reads the header `x-admin-token` (an operator session: a user's `token` never opens the console), then
 * checks the operator's role. Missing, unknown, expired (30 minutes idle, 8 hours at most), revoked or disabled ->
 * HTTP 401 admin_unauthorized; a role without the permission -> HTTP 403 admin_forbidden. On success
 * `request.operator` holds the actor (with the request's IP and user-agent, for the audit log).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import { ROLE_PERMISSIONS, type OperatorPermission, type OperatorRole } from '@exchange/api';
import { AppError } from './errors';

/** Where a request came from (audit rows record it). */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

/** The operator behind a request, with the origin of that request. */
export interface Actor extends RequestOrigin {
  id: bigint;
  email: string;
  role: OperatorRole;
  /** The session's id (logout revokes it). */
  sessionId: bigint;
}

/** What the guard needs of the admin service (domains/admin, AdminService.authenticate). */
export interface OperatorSessions {
  /** The operator of a live session token (sliding its idle timer), or null. */
  authenticate(token: string, origin: RequestOrigin): Promise<Actor | null>;
}

/** The actions a route may require. */
export type Permission = OperatorPermission;

/** True when `role` is a known role and has `permission`. */
export function can(role: string, permission: Permission): boolean {
  return (ROLE_PERMISSIONS as Record<string, readonly Permission[] | undefined>)[role]?.includes(permission) ?? false;
}

/** True when `s` names a role. */
export function isRole(s: string): s is OperatorRole {
  return Object.hasOwn(ROLE_PERMISSIONS, s);
}

/** The console's guard factory: the guard of one permission (see `createRequireOperator`). */
export type OperatorGuard = (permission: Permission) => preHandlerAsyncHookHandler;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated operator; set by `requireOperator` (undefined before it ran). */
    operator?: Actor;
  }
  interface FastifyInstance {
    /** The console's guard of a permission, built from the admin service (registerRequireOperator). */
    requireOperator: OperatorGuard;
  }
}

/** The first value of a header, trimmed; '' when absent. */
function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : '';
}

/** Where the request came from: IP and user-agent (at most 256 characters). */
export function originOf(req: FastifyRequest): { ip: string; userAgent: string } {
  return { ip: req.ip, userAgent: header(req, 'user-agent').slice(0, 256) };
}

/** Marks the handlers requireOperator makes (operatorGuardFirst finds them). */
const OPERATOR_GUARD = Symbol('operator guard');

/**
 * The console's guard over `admin`: `requireOperator(permission)` answers a preHandler that lets through a live
 * operator session whose role has `permission` (401 admin_unauthorized, 403 admin_forbidden otherwise). The app runs
 * it as the route's onRequest hook instead (operatorGuardFirst): a console request is authenticated before its body is read.
 */
export function createRequireOperator({ admin }: { admin: OperatorSessions }): OperatorGuard {
  return function requireOperator(permission: Permission): preHandlerAsyncHookHandler {
    const guard = async function (this: unknown, req: FastifyRequest, _reply: FastifyReply): Promise<void> {
      const token = header(req, 'x-admin-token');
      if (token === '') throw new AppError('admin_unauthorized', 401);
      const actor = await admin.authenticate(token, originOf(req));
      if (!actor) throw new AppError('admin_unauthorized', 401);
      if (!can(actor.role, permission)) throw new AppError('admin_forbidden', 403);
      req.operator = actor;
    };
    return Object.assign(guard, { [OPERATOR_GUARD]: true });
  };
}

/**
 * Decorates `app` with the console's guard over `admin` (`app.requireOperator`), before the routes that use it are
 * registered (main/app.ts); every plugin registered on `app` afterwards sees it.
 */
export function registerRequireOperator(app: FastifyInstance, deps: { admin: OperatorSessions }): void {
  app.decorate('requireOperator', createRequireOperator(deps));
}

function isGuard(h: unknown): boolean {
  return typeof h === 'function' && (h as unknown as Record<symbol, unknown>)[OPERATOR_GUARD] === true;
}

/**
 * An `onRoute` hook (main/app.ts registers it before the routes): a route whose preHandler holds a requireOperator
 * guard runs it as an onRequest hook instead, so the console authenticates a request before it parses and validates
 * its body (an anonymous caller learns nothing of a console route's schema: 401, never a 400 naming a field).
 */
export function operatorGuardFirst(route: RouteOptions): void {
  const list = (h: unknown): unknown[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);
  const pre = list(route.preHandler);
  const guards = pre.filter(isGuard);
  if (guards.length === 0) return;
  route.preHandler = pre.filter((h) => !isGuard(h)) as RouteOptions['preHandler'];
  route.onRequest = [...list(route.onRequest), ...guards] as RouteOptions['onRequest'];
}

/** The request's operator (set by requireOperator). */
export function actorOf(req: FastifyRequest): Actor {
  if (!req.operator) throw new AppError('admin_unauthorized', 401);
  return req.operator;
}

/**
 * The audit record an engine command carries for an operator's action (updateUser, approveWithdrawal, ...): who
 * (`actor` id and e-mail), `action`, `before` and `after` as JSON text, the request's IP (at most 64
 * characters) and browser (at most 256), plus `extra` fields (e.g. the target user). The projector writes it as the
 * command's audit_log row.
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
