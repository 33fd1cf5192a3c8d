/**
 * Proves the sentences of FAILED envelopes (messages.ts): every field and parameter sentence belongs to a
 * known code and has the same placeholders in zh and en; fields are named in words (never their wire name,
 * unknown ones dropped); codes whose message already says what is wrong drop the field; parameter sentences
 * fill in the values or fall back to the plain message when one is missing.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './errors';
import { errorText, fieldLabel, FIELD_LABELS, FIELD_SENTENCES, PARAM_SENTENCES } from './messages';

const CJK = /[\u3400-\u9fff]/;
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the tables', () => {
  it('name known codes, with the same placeholders in both languages', () => {
    for (const [code, text] of Object.entries({ ...FIELD_SENTENCES, ...PARAM_SENTENCES })) {
      expect(Object.keys(ERROR_MESSAGES), code).toContain(code);
      expect(placeholders(text.zh), code).toEqual(placeholders(text.en));
      expect(CJK.test(text.zh), code).toBe(true);
      expect(CJK.test(text.en), code).toBe(false);
    }
    for (const text of Object.values(FIELD_SENTENCES)) expect(placeholders(text.en)).toEqual(['field']);
  });
  it('give every field a label in both languages, the zh one in Chinese unless it is an abbreviation', () => {
    for (const [field, label] of Object.entries(FIELD_LABELS)) {
      expect(label.en, field).toMatch(/^[a-zA-Z][a-zA-Z -]*$/);
      expect(label.zh, field).not.toBe('');
      expect(CJK.test(label.zh), field).toBe(true);
    }
  });
});

describe('errorText', () => {
  it('names a field in words where the code needs it', () => {
    expect(errorText('validation_failed', 'en', 'pairsName')).toBe('Invalid request parameters: trading pair');
    expect(errorText('validation_failed', 'zh', 'pairsName')).toBe('请求参数无效：交易对');
    expect(errorText('invalid_characters', 'en', 'account')).toBe('The account contains characters that are not allowed');
    expect(errorText('invalid_characters', 'zh', 'mail')).toBe('邮箱包含不允许的字符');
    expect(errorText('too_many_decimals', 'en', 'price')).toBe('Too many decimal places in the price');
    expect(errorText('value_too_large', 'zh', 'amount')).toBe('数量数值过大');
    expect(errorText('validation_failed', 'en', 'areaCode')).toBe('Invalid request parameters: country code');
  });
  it('drops the field where the message already says it', () => {
    expect(errorText('code_invalid', 'en', 'code')).toBe('Verification code is wrong or expired');
    expect(errorText('account_not_found', 'zh', 'account')).toBe('账号不存在');
    expect(errorText('email_invalid', 'en', 'mail')).toBe('Please enter a valid email address');
    expect(errorText('nickname_required', 'zh', 'nickName')).toBe('请输入昵称');
  });
  it('never shows a field without a label, nor an inherited property name', () => {
    expect(errorText('validation_failed', 'en', '<script>alert(1)</script>')).toBe('Invalid request parameters');
    expect(errorText('validation_failed', 'zh', 'constructor')).toBe('请求参数无效');
    expect(errorText('validation_failed', 'en', 'toString')).toBe('Invalid request parameters');
    expect(errorText('validation_failed', 'en', '')).toBe('Invalid request parameters');
    expect(fieldLabel('__proto__', 'en')).toBeUndefined();
  });
  it('uses the first part of a nested field', () => {
    expect(errorText('validation_failed', 'en', 'amount.0')).toBe('Invalid request parameters: amount');
  });
  it('says the value to meet when it is given', () => {
    expect(errorText('notional_below_minimum', 'en', undefined, { min: '5', coin: 'USDT' })).toBe('Minimum order value is 5 USDT');
    expect(errorText('notional_below_minimum', 'zh', undefined, { min: '5', coin: 'USDT' })).toBe('最小下单金额为 5 USDT');
    expect(errorText('quantity_not_on_step', 'en', 'amount', { step: '0.00001', coin: 'BTC' })).toBe('Amount must be a multiple of 0.00001 BTC');
    expect(errorText('quantity_below_minimum', 'zh', undefined, { min: '0.00001', coin: 'BTC' })).toBe('最小下单数量为 0.00001 BTC');
    expect(errorText('too_many_decimals', 'en', 'amount', { step: '0.00001', coin: 'BTC' })).toBe('The amount must be a multiple of 0.00001 BTC');
    expect(errorText('too_many_decimals', 'zh', 'price', { step: '0.01', coin: 'USDT' })).toBe('价格须为 0.01 USDT 的整数倍');
  });
  it('falls back when a value is missing', () => {
    expect(errorText('notional_below_minimum', 'en', undefined, { min: '5' })).toBe('Order value is below the minimum');
    expect(errorText('notional_below_minimum', 'en')).toBe('Order value is below the minimum');
    // too_many_decimals with a step but an unknown field: the field sentence cannot be built either.
    expect(errorText('too_many_decimals', 'en', 'zzz', { step: '0.01', coin: 'USDT' })).toBe('Too many decimal places');
    expect(errorText('no_such_code', 'en')).toBe('Invalid request parameters');
  });
});
