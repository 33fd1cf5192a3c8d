/**
 * Proves the phone rule of account parsing: a number must be a valid mobile number of its country
 * code (libphonenumber's metadata), so "12345" with +86 is refused; the account keeps the national
 * significant number (digits without the country code, as before), so existing +86 accounts still match;
 * unknown country codes are refused. Then once through the API: registering "12345" answers phone_invalid
 * before any code is checked, in both languages, with the message alone (no field name).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@exchange/api';
import { makeTestApp, type TestApp } from '../../../test/helpers';
import { accountKey, nationalMobileNumber, parseAccount, parsePhone } from './account';

describe('nationalMobileNumber', () => {
  it.each([
    ['13800138000', '86', '13800138000'],
    ['17000000001', '86', '17000000001'],
    ['51234567', '852', '51234567'],
    ['2025550123', '1', '2025550123'],
    ['07911123456', '44', '7911123456'],
    ['7911123456', '44', '7911123456'],
    ['9123456789', '91', '9123456789'],
  ])('accepts %s with +%s as %s', (digits, areaCode, national) => {
    expect(nationalMobileNumber(digits, areaCode)).toBe(national);
  });

  it.each([
    ['12345', '86', 'too short for China'],
    ['1380000000', '86', 'one digit short'],
    ['138001380001', '86', 'one digit long'],
    ['01012345678', '86', 'a Beijing landline: codes go by SMS'],
    ['10000000000', '86', 'no such mobile prefix'],
    ['5555555555', '1', 'not a North American number'],
    ['13800138000', '999', 'no such country code'],
    ['13800138000', '', 'no country code'],
    ['1380013800a', '86', 'not digits'],
  ])('refuses %s with +%s (%s)', (digits, areaCode) => {
    expect(nationalMobileNumber(digits, areaCode)).toBeNull();
  });
});

describe('parsePhone and parseAccount', () => {
  it('keeps the key of existing +86 accounts: digits without the country code', () => {
    expect(parsePhone('138 0013-8000', undefined)).toEqual({ kind: 'phone', phone: '13800138000', areaCode: '86' });
    expect(accountKey(parseAccount('13800138000'))).toBe('+86 13800138000');
    expect(accountKey(parseAccount('07911123456', '44'))).toBe('+44 7911123456');
  });

  it('throws phone_invalid naming the field', () => {
    expect(() => parsePhone('12345', '86')).toThrowError(expect.objectContaining({ code: 'phone_invalid', status: 400, field: 'phone' }));
    expect(() => parseAccount('12345', '86')).toThrowError(expect.objectContaining({ code: 'phone_invalid', field: 'account' }));
    expect(() => parseAccount('13800138000', '1')).toThrowError(expect.objectContaining({ code: 'phone_invalid' }));
  });
});

describe('through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['zh', 'en'] as const)('refuses to register 12345 with +86 (%s)', async (lang) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/member/member/register',
      headers: { lang },
      payload: {
        registerType: 'PHONE',
        phone: '12345',
        areaCode: '86',
        code: '123456',
        password: 'Secret123',
        confirmPassword: 'Secret123',
        agreement: 'true',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'FAILED', errorCode: 'phone_invalid', errorMessage: ERROR_MESSAGES.phone_invalid[lang], result: null });
  });
});
