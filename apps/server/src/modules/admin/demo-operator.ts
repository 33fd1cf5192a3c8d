/**
 * The demo operator of the embedded demo (issue 10): created at start when demo mode is on and no operator with its
 * e-mail exists; its password and TOTP key are printed in the start log once (on creation). An existing demo operator
 * is left as it is (its credentials were printed when it was created: `npm run admin -- create-operator` makes another).
 */
import type { AdminService } from './admin.service';

/** The demo operator's e-mail. */
export const DEMO_OPERATOR_EMAIL = 'operator@exchange.local';

/** Creates the demo operator (role admin) in demo mode if absent; its credentials when created now, else null. */
export async function ensureDemoOperator(ctx: { config: { demoMode: boolean }; admin: AdminService }): Promise<{ email: string; password: string; totpSecret: string; otpauthUrl: string } | null> {
  if (!ctx.config.demoMode) return null;
  const existing = (await ctx.admin.listOperators()).find((o) => o.email === DEMO_OPERATOR_EMAIL);
  if (existing) return null;
  try {
    const c = await ctx.admin.createOperator(null, { email: DEMO_OPERATOR_EMAIL, name: 'Demo operator', role: 'admin' });
    return { email: c.operator.email, password: c.password, totpSecret: c.totpSecret, otpauthUrl: c.otpauthUrl };
  } catch {
    return null; // created meanwhile by another process
  }
}
