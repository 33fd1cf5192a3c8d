/**
 * `requireAuth`: the preHandler of every private route. Reads the `token` and `userId` headers (ARCHITECTURE.md
 * section 7, the API) and checks them against the session table through the member service's `authenticate`, handed
 * to `createRequireAuth` (main/app.ts builds the guard from `{ members }` and decorates the app with it as
 * `app.requireAuth`; a route file takes it from the instance it registers on).
 * - either header missing or empty -> HTTP 401, errorCode 'unauthorized' (spec section 8: 401 clears the session);
 * - both present but the token is unknown, expired, revoked or belongs to another user -> HTTP 401,
 *   errorCode 'SYS.0015' (spec section 8: session expired). A token or user id that is not even well-formed gets
 *   the same answer without a session lookup, so forged credentials cost no database round trip;
 * - from an IP whose failed lookups spent its budget (AUTH_FAILURES_PER_MIN) -> HTTP 429 rate_limited, no lookup.
 * On success `request.userId` holds the caller's user id (a numeric string).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** Longest User-Agent kept with a session or a log row. */
export const USER_AGENT_MAX = 512;

/** A preHandler that authenticates the request (throws AppError 401 or 429) and sets `request.userId`. */
export type SessionGuard = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's user id; set by `requireAuth` ('' before it ran). */
    userId: string;
  }
  interface FastifyInstance {
    /** The session check of private routes, built from the member service (registerRequireAuth). */
    requireAuth: SessionGuard;
  }
}

/**
 * What the session check needs of the member service (domains/member, MemberService.authenticate): the user id (a
 * numeric string) of the live session `token` of `userId`, or null when there is none.
 */
export interface MemberSessions {
  authenticate(token: string, userId: string): Promise<string | null>;
}

/** The first value of a header, trimmed; '' when absent. Node lower-cases header names. */
function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : '';
}

/** The form of every session token issued (secrets.ts randomToken: 32 bytes, base64url). */
const TOKEN_FORM = /^[A-Za-z0-9_-]{43}$/;
/** The form of a user id on the wire (a positive decimal below 2^63, as member.service's parseUserId). */
const USER_ID_FORM = /^[1-9][0-9]{0,18}$/;

/**
 * The session check over `members`: a Fastify preHandler that authenticates the request or throws AppError 401
 * ('unauthorized' when credentials are missing, 'SYS.0015' when they are present but not a live session of that user).
 */
export function createRequireAuth({ members }: { members: MemberSessions }): SessionGuard {
  return async function requireAuth(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = header(req, 'token');
    const userId = header(req, 'userId');
    if (token === '' || userId === '') throw new AppError('unauthorized', 401);
    if (!TOKEN_FORM.test(token) || !USER_ID_FORM.test(userId)) throw new AppError('SYS.0015', 401);
    // An IP that sent too many unknown tokens is refused before the lookup (platform/rate-limit/rate-limits.ts).
    const settle = req.server.authFailures?.begin(req, reply);
    let id: string | null;
    try {
      id = await members.authenticate(token, userId);
    } catch (err) {
      settle?.(false); // the lookup broke; the token was not refused
      throw err;
    }
    settle?.(id === null);
    if (id === null) throw new AppError('SYS.0015', 401);
    req.userId = id;
  };
}

/**
 * Decorates `app` with the session check over `members` (`app.requireAuth`), before the routes that use it are
 * registered (main/app.ts); every plugin registered on `app` afterwards sees it.
 */
export function registerRequireAuth(app: FastifyInstance, deps: { members: MemberSessions }): void {
  app.decorate('requireAuth', createRequireAuth(deps));
}
