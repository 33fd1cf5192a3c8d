/**
 * Proves the role table of roles.ts as the OTC routes use it (issue 13): `otc_decide` (review and suspend merchants,
 * close ads, resolve appeals) belongs to compliance and admin only; support and finance view; an unknown role has
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { can, isRole } from './roles';

describe('roles: otc_decide', () => {
  it('compliance and admin decide OTC; support and finance only view', () => {
    expect(['support', 'finance', 'compliance', 'admin'].map((r) => can(r, 'otc_decide'))).toEqual([false, false, true, true]);
    expect(['support', 'finance', 'compliance', 'admin'].map((r) => can(r, 'view'))).toEqual([true, true, true, true]);
    expect(can('finance', 'wallet_decide')).toBe(true);
    expect(can('compliance', 'wallet_decide')).toBe(false);
    expect(can('root', 'otc_decide')).toBe(false);
    expect(isRole('toString')).toBe(false);
  });
});
