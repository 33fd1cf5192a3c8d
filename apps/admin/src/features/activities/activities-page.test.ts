/**
 * The console's activity form (ActivitiesPage bodyOf): a competition sends its prize table and no deposit terms, a
 * deposit bonus its threshold and bonus and no prizes; times are the datetime-local inputs' local times; the banner
 * is sent only when given.
 */
import { describe, expect, it } from 'vitest';
import { bodyOf, localInput } from './ActivitiesPage';

const base = {
  titleZh: ' 大赛 ',
  titleEn: 'Cup ',
  rulesZh: '规则',
  rulesEn: 'Rules',
  banner: '',
  coin: 'USDT',
  scope: 'SPOT' as const,
  prizes: ' 100, 50 ',
  budget: ' 150 ',
  minDeposit: '10',
  bonus: '1',
};

describe('activity form body', () => {
  it('a competition: trimmed texts, the prize table, local times to Unix ms, no banner', () => {
    const start = new Date(2026, 0, 2, 3, 4).getTime();
    const end = new Date(2026, 0, 9, 3, 4).getTime();
    const b = bodyOf({ ...base, kind: 'TRADING', start: localInput(start), end: localInput(end) });
    expect(localInput(start)).toBe('2026-01-02T03:04');
    expect(b).toEqual({
      kind: 'TRADING',
      titleZh: '大赛',
      titleEn: 'Cup',
      rulesZh: '规则',
      rulesEn: 'Rules',
      startTime: start,
      endTime: end,
      coin: 'USDT',
      scope: 'SPOT',
      budget: '150',
      prizes: '100, 50',
    });
  });
  it('a deposit bonus: threshold and bonus, no prizes; the banner when given', () => {
    const b = bodyOf({ ...base, kind: 'DEPOSIT', banner: ' /images/a.png ', start: '2026-01-02T03:04', end: '2026-01-03T03:04' });
    expect(b).toMatchObject({ kind: 'DEPOSIT', minDeposit: '10', bonus: '1', banner: '/images/a.png' });
    expect(b).not.toHaveProperty('prizes');
  });
});
