// PLACEHOLDER: replaced by the member engineer. Only the interface below is agreed.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env';
import type { Db } from '../../db/client';
import type { Hooks } from '../../context';

export interface MemberService {
  /** The user id of a valid, unexpired, unrevoked session token whose owner is `userId`; else null. */
  authenticate(token: string, userId: string): Promise<string | null>;
  /** The user's nickname ('' when not set). */
  nickName(userId: string): Promise<string>;
}

export function createMemberService(_deps: { config: Config; db: Db; log: FastifyBaseLogger; hooks: Hooks }): MemberService {
  throw new Error('member service not built yet');
}
