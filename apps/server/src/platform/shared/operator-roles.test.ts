/**
 * Proves the role table of operator.ts as the OTC console routes use it (otc.admin.routes.ts): moderating
 * merchants and ads needs `user_freeze` (compliance, admin), resolving an appeal moves escrowed coin and needs
 * `wallet_decide` (finance, admin); every role views; an unknown role has nothing. The console hides the buttons by
 * the same table (apps/admin/src/features/otc/otc-permissions.ts).
 */
import { describe, expect, it } from 'vitest';
import { can, isRole } from './operator';

const ROLES = ['support', 'finance', 'compliance', 'admin'];

describe('roles: OTC', () => {
  it('compliance and admin moderate, finance and admin resolve, everyone views', () => {
    expect(ROLES.map((r) => can(r, 'user_freeze'))).toEqual([false, false, true, true]);
    expect(ROLES.map((r) => can(r, 'wallet_decide'))).toEqual([false, true, false, true]);
    expect(ROLES.map((r) => can(r, 'view'))).toEqual([true, true, true, true]);
    expect(can('root', 'view')).toBe(false);
    expect(isRole('toString')).toBe(false);
  });
});

describe('roles: content', () => {
  it('support, compliance and admin edit drafts; compliance and admin publish; finance does neither', () => {
    expect(ROLES.map((r) => can(r, 'content_edit'))).toEqual([true, false, true, true]);
    expect(ROLES.map((r) => can(r, 'content_publish'))).toEqual([false, false, true, true]);
  });
});
