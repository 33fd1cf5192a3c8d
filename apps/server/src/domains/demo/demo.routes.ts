/**
 * GET /api/demo/info: public; whether demo mode is on and the USDT each new account is credited there
 * (DEMO_FAUCET_USDT of the demo faucet, '0' when demo mode is off), for the sign-up page to say so.
 *
 * GET /api/demo/outbox?account=...: the codes the demo sender "sent" to an account, newest first.
 * Answers a 404 FAILED envelope unless demo mode is on (asked for explicitly; never under production rules), and
 * 403 to any client that is not on loopback. Codes that would let a caller take over an account are shown only to
 * that account's logged-in owner (token and userId headers): every code of an existing account except a REGISTER
 * code of an account not registered yet (reading a FORGET code from the outbox was an account takeover).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_PATHS, DemoInfo, Envelope, OutboxMessage, OutboxQuery } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { type MemberService } from '../member/member.service';
import { DEMO_FAUCET_USDT } from '../asset/demo-faucet';
import { listOutbox } from '../verification/outbox.repository';
import type { PlatformContext } from '../../platform/platform-context';
import { userKeyOf } from '../../platform/shared/account';

/** True for loopback addresses (IPv4 127/8, ::1, and IPv4-mapped 127/8). */
export function isLoopback(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

/**
 * The guard of the demo's test-only routes (the outbox, the reference price and clock controls): throws AppError
 * not_found (404) unless demo mode is on, forbidden (403) unless the client `ip` is on loopback.
 */
export function requireDemoLoopback(config: { demoMode: boolean }, ip: string): void {
  if (!config.demoMode) throw new AppError('not_found', 404);
  if (!isLoopback(ip)) throw new AppError('forbidden', 403);
}

/** The caller's user id when the token/userId headers name a live session, else null (never throws). */
async function callerOf(members: Pick<MemberService, 'authenticate'>, req: FastifyRequest): Promise<string | null> {
  const token = req.headers.token;
  const userId = req.headers.userid;
  if (typeof token !== 'string' || typeof userId !== 'string' || token === '' || userId === '') return null;
  return members.authenticate(token.trim(), userId.trim());
}

/** What the demo's info and outbox routes use. */
export type DemoRoutesDeps = Pick<PlatformContext, 'config' | 'db' | 'host'> & { members: Pick<MemberService, 'authenticate'> };

/** The demo's info and outbox routes over the config (demo mode), the database (the outbox), the engine port (which accounts exist) and the member service (the caller's session). */
export default function demoRoutes({ config, db, host, members }: DemoRoutesDeps): FastifyPluginAsync {
  return async function demoRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      `/api/${API_PATHS.demoInfo}`,
      {
        schema: {
          tags: ['demo'],
          summary: 'Whether demo mode is on and the whole USDT credited to each new account in it ("0" when off).',
          response: { 200: Envelope(DemoInfo) },
        },
      },
      async () => {
        const demoMode = config.demoMode;
        return ok({ demoMode, welcomeUsdt: demoMode ? DEMO_FAUCET_USDT.toString() : '0' });
      },
    );
    app.get(
      `/api/${API_PATHS.demoOutbox}`,
      {
        schema: {
          tags: ['demo'],
          summary:
            'Demo mode, loopback clients only: verification codes sent to an account (e-mail or phone digits), newest first. Codes of an existing account are shown to its logged-in owner only; a binding code to an address nobody owns yet, to a logged-in caller.',
          querystring: OutboxQuery,
          response: { 200: Envelope(Type.Array(OutboxMessage)) },
        },
      },
      async (req) => {
        requireDemoLoopback(config, req.ip);
        const account = req.query.account.trim();
        const key = account.includes('@') ? account.toLowerCase() : account.replace(/[\s-]/g, '');
        const rows = await listOutbox(db, key);
        const engine = host.engine;
        let caller: string | null | undefined;
        const visible = [];
        for (const r of rows) {
          const owner = engine.userByKey(
            userKeyOf(r.account.includes('@') ? { kind: 'email', mail: r.account } : { kind: 'phone', areaCode: r.areaCode, phone: r.account }),
          );
          if (owner === undefined && r.type === 'REGISTER') {
            visible.push(r);
            continue;
          }
          caller ??= await callerOf(members, req);
          // A BIND code goes to an address nobody owns yet, asked for by a logged-in user (account centre).
          if (owner === undefined ? r.type === 'BIND' && caller !== null : caller === owner) visible.push(r);
        }
        return ok(visible.map(({ account: a, type, code, createdAt }) => ({ account: a, type, code, createdAt })));
      },
    );
  };
}
