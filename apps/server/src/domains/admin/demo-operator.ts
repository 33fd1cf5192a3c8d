/**
 * The demo operator of the embedded demo: created at start when demo mode is on, with documented
 * credentials (as the demo account's, member/demo-account.ts), printed in the start log every start so that a visitor
 * (and the Playwright journey) can log into the console with an authenticator app or any TOTP tool. Demo mode only:
 * platform/config/env.ts refuses demo mode in production and keeps it on loopback.
 */
import type { AdminService } from './admin.service';

/** The demo operator's e-mail. */
export const DEMO_OPERATOR_EMAIL = 'operator@exchange.local';
/** The demo operator's password (documented; demo mode only). */
export const DEMO_OPERATOR_PASSWORD = 'DemoOperator-2026';
/** The demo operator's TOTP key, base32 (documented; demo mode only). */
export const DEMO_OPERATOR_TOTP = 'DEMOOPERATORTOTPKEYEXCHANGE23456';

/** The demo operator's credentials for the start log. */
export interface DemoOperator {
  email: string;
  password: string;
  totpSecret: string;
  created: boolean;
}

/** Creates the demo operator (role admin) in demo mode if absent; its credentials in demo mode, else null. */
export async function ensureDemoOperator(ctx: { config: { demoMode: boolean }; admin: AdminService }): Promise<DemoOperator | null> {
  if (!ctx.config.demoMode) return null;
  const creds = { email: DEMO_OPERATOR_EMAIL, password: DEMO_OPERATOR_PASSWORD, totpSecret: DEMO_OPERATOR_TOTP };
  if ((await ctx.admin.listOperators()).some((o) => o.email === DEMO_OPERATOR_EMAIL)) return { ...creds, created: false };
  try {
    await ctx.admin.createOperator(
      null,
      { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator', role: 'admin' },
      { password: DEMO_OPERATOR_PASSWORD, totpSecret: DEMO_OPERATOR_TOTP },
    );
    return { ...creds, created: true };
  } catch {
    return { ...creds, created: false }; // created meanwhile by another process
  }
}
