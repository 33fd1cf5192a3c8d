/**
 * Unit tests of the basic verification's field rules: the mainland ID number's ISO 7064 MOD 11-2 check character
 * (against published sample numbers and every wrong check character), its birth date (calendar-valid, not in the
 * future), other documents' 5-20 letters and digits, real names (scripts, middle dot, no digits or symbols), the
 * country code, ages around a birthday and the masks.
 */
import { describe, expect, it } from 'vitest';
import { ageOn, maskIdNumber, parseCountry, parseIdNumber, parseRealName } from './kyc-rules';
import { mainlandId } from './kyc-test-support';

const NOW = Date.UTC(2026, 10, 23, 12);
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('mainland ID numbers (CN + ID_CARD)', () => {
  it('accepts numbers with a right check character, X included, in either case', () => {
    // GB 11643-1999's sample and a well-known X-terminated sample.
    expect(parseIdNumber('CN', 'ID_CARD', '11010519491231002X', NOW)).toEqual({ number: '11010519491231002X', birthDate: '1949-12-31' });
    expect(parseIdNumber('CN', 'ID_CARD', '11010519491231002x', NOW).number).toBe('11010519491231002X');
    expect(parseIdNumber('CN', 'ID_CARD', mainlandId('20000229'), NOW).birthDate).toBe('2000-02-29');
  });

  it('refuses every wrong check character', () => {
    const good = mainlandId('19900307');
    for (const c of '0123456789X') {
      const n = good.slice(0, 17) + c;
      expect(code(() => parseIdNumber('CN', 'ID_CARD', n, NOW))).toBe(c === good[17] ? 'ok' : 'id_number_invalid');
    }
  });

  it('refuses impossible and future birth dates, wrong lengths and characters', () => {
    for (const n of [
      mainlandId('19900230'),
      mainlandId('19010229'),
      mainlandId('19901301'),
      mainlandId('20270101'),
      mainlandId('18991231'),
      '1101011990030712',
      '11010119900307123Y',
      '１１０１０１１９９００３０７１２３Ｘ',
    ]) {
      expect(
        code(() => parseIdNumber('CN', 'ID_CARD', n, NOW)),
        n,
      ).toBe('id_number_invalid');
    }
    expect(code(() => parseIdNumber('CN', 'ID_CARD', mainlandId('20261123'), NOW))).toBe('ok');
    expect(code(() => parseIdNumber('CN', 'ID_CARD', mainlandId('20261124'), NOW))).toBe('id_number_invalid');
  });
});

describe('other documents', () => {
  it('take 5-20 ASCII letters and digits', () => {
    expect(parseIdNumber('CN', 'PASSPORT', 'e12345678', NOW)).toEqual({ number: 'E12345678' });
    expect(parseIdNumber('US', 'ID_CARD', '110101199003071234', NOW)).toEqual({ number: '110101199003071234' });
    for (const n of ['1234', 'A'.repeat(21), 'E1234-567', "' OR 1=1 --", '١٢٣٤٥٦'])
      expect(
        code(() => parseIdNumber('GB', 'DRIVING_LICENSE', n, NOW)),
        n,
      ).toBe('id_number_invalid');
  });
});

describe('names, countries, ages, masks', () => {
  it('names: letters of any script in words, a middle dot, no digits or symbols', () => {
    for (const n of ['张三', '阿依古丽·买买提', 'Anna Maria Müller', 'José Ñúñez', 'Пётр Иванов']) expect(parseRealName(` ${n} `)).toBe(n);
    for (const n of ['张', 'Alice1', 'Bob_Smith', '<script>', "O'Brien", 'Anna  Maria', '张三·', '１２３', 'x'.repeat(65)])
      expect(
        code(() => parseRealName(n)),
        n,
      ).toBe('real_name_invalid');
  });

  it('countries: ISO 3166-1 alpha-2, default CN', () => {
    expect([parseCountry(undefined), parseCountry(''), parseCountry('us'), parseCountry('HK')]).toEqual(['CN', 'CN', 'US', 'HK']);
    for (const c of ['XX', 'ZZ', 'USA', '1', 'C'])
      expect(
        code(() => parseCountry(c)),
        c,
      ).toBe('country_invalid');
  });

  it('ages count whole years up to the birthday', () => {
    expect(ageOn('2010-11-23', NOW)).toBe(16);
    expect(ageOn('2010-11-24', NOW)).toBe(15);
    expect(ageOn('1990-03-07', NOW)).toBe(36);
  });

  it('masks keep the first 3 and last 4 characters', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('110***********002X');
    expect(maskIdNumber('E12345678')).toBe('E12**5678');
    expect(maskIdNumber('AB123')).toBe('A***3');
  });
});
