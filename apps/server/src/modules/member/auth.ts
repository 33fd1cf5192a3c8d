/**
 * `requireAuth`: the preHandler of every private route. Reads the `token` and `userId` headers (DESIGN.md
 * section 4) and checks them against the session table through `ctx.members.authenticate`.
 * - either header missing or empty -> HTTP 401, errorCode 'unauthorized' (spec section 8: 401 clears the session);
 * - both present but the token is unknown, expired, revoked or belongs to another user -> HTTP 401,
 *   errorCode 'SYS.0015' (spec section 8: session expired).
 * On success `request.userId` holds the caller's user id (a numeric string).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's user id; set by `requireAuth` ('' before it ran). */
    userId: string;
  }
}

/** The first value of a header, trimmed; '' when absent. Node lower-cases header names. */
function header(req: FastifyRequest, name: string): string {
  const v = req.headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : '';
}

/**
 * Fastify preHandler: authenticates the request or throws AppError 401 ('unauthorized' when credentials
 * are missing, 'SYS.0015' when they are present but not a live session of that user).
 */
export async function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = header(req, 'token');
  const userId = header(req, 'userId');
  if (token === '' || userId === '') throw new AppError('unauthorized', 401);
  const id = await req.server.ctx.members.authenticate(token, userId);
  if (id === null) throw new AppError('SYS.0015', 401);
  req.userId = id;
}
