/** Proves that the zh texts have exactly the keys of the en texts (the source), none empty. */
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { zh } from './zh';

function keys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function values(o: Record<string, unknown>): unknown[] {
  return Object.values(o).flatMap((v) => (v !== null && typeof v === 'object' ? values(v as Record<string, unknown>) : [v]));
}

describe('console locales', () => {
  it('zh has every key of en and no other, and no text is empty', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const v of [...values(en), ...values(zh)]) expect(typeof v === 'string' && v.length > 0).toBe(true);
  });
});
