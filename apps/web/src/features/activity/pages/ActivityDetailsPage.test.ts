/** The deposit bonus's quota shown on the details page: floor(budget / bonus), on decimal strings. */
import { describe, expect, it } from 'vitest';
import { bonusQuota } from './ActivityDetailsPage';

describe('bonusQuota', () => {
  it('is the whole number of bonuses the budget pays', () => {
    expect(bonusQuota({ budget: '25.00000000', bonus: '10.00000000' })).toBe('2');
    expect(bonusQuota({ budget: '1000.00000000', bonus: '0.30000000' })).toBe('3333');
    expect(bonusQuota({ budget: '10.00000000', bonus: '10.00000000' })).toBe('1');
  });
});
