// Client checks of basic verification: the mainland ID check character (ISO 7064 MOD 11-2) against known-good
// numbers, birth dates (impossible and future ones refused), the under-16 guardian rule on its boundary day, other
// documents, and real names (scripts accepted, digits and symbols refused).
import { describe, expect, it } from 'vitest';
import { ageOn, checkIdNumber, checkMainlandId, checkRealName, idCheckChar, needsGuardian } from './identity';

const NOW = new Date(Date.UTC(2026, 10, 23));
/** Builds a valid ID number from a region code and a birth date (check char computed). */
const id = (birth: string, region = '110101', seq = '123') => {
  const first17 = region + birth + seq;
  return first17 + idCheckChar(first17);
};

describe('mainland ID number', () => {
  it('computes the published check characters', () => {
    // The GB 11643-1999 worked example and a number ending in X.
    expect(idCheckChar('11010519491231002')).toBe('X');
    expect(idCheckChar('44052418800101001')).toBe('4');
  });

  it('accepts a valid number, lower-case x included', () => {
    expect(checkMainlandId('11010519491231002X', NOW)).toBeNull();
    expect(checkMainlandId('11010519491231002x', NOW)).toBeNull();
    expect(checkMainlandId(id('19900101'), NOW)).toBeNull();
  });

  it('refuses a wrong check character, wrong length and letters', () => {
    expect(checkMainlandId('110105194912310021', NOW)).toBe('v.idInvalid');
    expect(checkMainlandId('11010519491231002', NOW)).toBe('v.idInvalid');
    expect(checkMainlandId('1101051949123100AX', NOW)).toBe('v.idInvalid');
  });

  it('refuses impossible and future birth dates', () => {
    expect(checkMainlandId(id('19900230'), NOW)).toBe('v.idBirth');
    expect(checkMainlandId(id('20271201'), NOW)).toBe('v.idBirth');
  });
});

describe('guardian consent under 16', () => {
  it('counts whole years on the birthday boundary', () => {
    expect(ageOn([2010, 11, 23], NOW)).toBe(16);
    expect(ageOn([2010, 11, 24], NOW)).toBe(15);
  });

  it('needs consent only for a valid mainland ID of someone under 16', () => {
    expect(needsGuardian('CN', 'ID_CARD', id('20101124'), NOW)).toBe(true);
    expect(needsGuardian('CN', 'ID_CARD', id('20101123'), NOW)).toBe(false);
    expect(needsGuardian('CN', 'PASSPORT', 'E12345678', NOW)).toBe(false);
    expect(needsGuardian('CN', 'ID_CARD', '123', NOW)).toBe(false);
  });
});

describe('other documents and names', () => {
  it('passport and licence: 5-20 letters or digits', () => {
    expect(checkIdNumber('US', 'PASSPORT', 'X1234567', NOW)).toBeNull();
    expect(checkIdNumber('US', 'PASSPORT', 'X12', NOW)).toBe('v.docInvalid');
    expect(checkIdNumber('US', 'DRIVING_LICENSE', 'AB-123456', NOW)).toBe('v.docInvalid');
    expect(checkIdNumber('CN', 'ID_CARD', '', NOW)).toBe('v.idRequired');
  });

  it('real names: letters, spaces and the middle dot; no digits or symbols', () => {
    for (const ok of ['张三', '阿卜杜拉·买买提', 'John Smith', 'José Álvarez']) expect(checkRealName(ok), ok).toBeNull();
    for (const bad of ['John3', 'a<b>', 'Tom_Lee', '张 · 三', '@@']) expect(checkRealName(bad), bad).toBe('v.nameInvalid');
    expect(checkRealName('  ')).toBe('v.nameRequired');
  });
});
