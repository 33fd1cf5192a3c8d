/**
 * The demo account of the embedded demo: created once when demo mode is on, with the
 * documented credentials below; hooks.userRegistered fires for it on creation (demo funds).
 */
import type { Config } from '../../platform/config/env';
import type { MemberService } from './member.service';

/** The demo account's e-mail. */
export const DEMO_ACCOUNT = 'demo@exchange.local';
/** The demo account's password (documented; demo mode only, never in production). */
export const DEMO_PASSWORD = 'Demo12345';
/** The demo account's nickname. */
export const DEMO_NICKNAME = 'Demo';

/** Creates the demo user if absent; its credentials in demo mode, else null. */
export async function ensureDemoAccount(ctx: {
  config: Pick<Config, 'demoMode'>;
  members: Pick<MemberService, 'ensureEmailUser'>;
}): Promise<{ account: string; password: string } | null> {
  if (!ctx.config.demoMode) return null;
  await ctx.members.ensureEmailUser(DEMO_ACCOUNT, DEMO_PASSWORD, DEMO_NICKNAME);
  return { account: DEMO_ACCOUNT, password: DEMO_PASSWORD };
}
