/**
 * The extension points services listen on (`Hooks`) and what they carry. They live in the platform, apart from the
 * context (main/context.ts) and the domain modules that build the services, so that a service taking `hooks` as a port
 * imports nothing of what builds it (importing it back would close an import circle; src/import-cycles.test.ts fails
 * on any circle). This module imports only wire types.
 */
import type { WsSessionEndReason } from '@exchange/api';

/**
 * Sessions that ended: the one whose token hashes to `tokenHash` (sha256 hex, as in the sessions table), or, without
 * it, every session of the user.
 */
export interface SessionsEnded {
  userId: string;
  tokenHash?: string;
  reason: WsSessionEndReason;
}

/** Extension points other services listen on (e.g. demo funds on registration). */
export interface Hooks {
  /** Called after a user row is committed by registration (and for the demo account). */
  userRegistered: Array<(userId: string) => Promise<void>>;
  /**
   * Called synchronously once ended sessions are revoked in the database (logout, password reset, and any caller
   * of MemberService.endAllSessions): listeners cut what those sessions still hold open, e.g. the WebSocket hub
   * unbinds their sockets. A listener must not throw or await.
   */
  sessionsEnded: Array<(e: SessionsEnded) => void>;
}

/** Hooks with no listeners yet (the context creates one set and hands it to every service that listens or calls). */
export function createHooks(): Hooks {
  return { userRegistered: [], sessionsEnded: [] };
}
