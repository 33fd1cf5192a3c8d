// Proves the form rules of withdraw and transfer on exact decimals: each rule's message key in the order the server
// checks, the receive amount (amount - fee) and Max, and what typing is kept.
import { describe, expect, it } from 'vitest';
import { checkTransfer, checkWithdrawAmount, receiveAmount, sanitizeAmount, withdrawMax } from './amounts';

const USDT = { available: '500', minWithdraw: '10', maxWithdraw: '300', withdrawFee: '1', withdrawDecimals: 6 };

describe('checkWithdrawAmount', () => {
  it('names the first broken rule', () => {
    expect(checkWithdrawAmount('', USDT)).toBe('v.amountRequired');
    expect(checkWithdrawAmount('0', USDT)).toBe('v.amountInvalid');
    expect(checkWithdrawAmount('1.', USDT)).toBe('v.amountInvalid');
    expect(checkWithdrawAmount('12.1234567', USDT)).toBe('v.amountDecimals');
    expect(checkWithdrawAmount('9.999999', USDT)).toBe('v.amountBelowMin');
    expect(checkWithdrawAmount('300.000001', USDT)).toBe('v.amountAboveMax');
    expect(checkWithdrawAmount('600', USDT)).toBe('v.amountAboveAvailable');
    expect(checkWithdrawAmount('2', { ...USDT, minWithdraw: '1', withdrawFee: '2' })).toBe('v.amountBelowFee');
  });
  it('accepts the bounds exactly', () => {
    expect(checkWithdrawAmount('10', USDT)).toBeNull();
    expect(checkWithdrawAmount('300.000000', USDT)).toBeNull();
    expect(checkWithdrawAmount('123.456789', USDT)).toBeNull();
  });
});

describe('receive and max', () => {
  it('receive is amount - fee, exact', () => {
    expect(receiveAmount('10.000001', '1')).toBe('9.000001');
    expect(receiveAmount('0.3', '0.1')).toBe('0.2');
    expect(receiveAmount('1', '1')).toBe('');
    expect(receiveAmount('', '1')).toBe('');
  });
  it('max is the smaller of available and maximum', () => {
    expect(withdrawMax(USDT)).toBe('300');
    expect(withdrawMax({ ...USDT, available: '12.5' })).toBe('12.5');
    // The balance's 8 decimals rounded down to the coin's 6, never up.
    expect(withdrawMax({ ...USDT, available: '12.12345678' })).toBe('12.123456');
    expect(withdrawMax({ ...USDT, available: '20.00000000' })).toBe('20');
  });
});

describe('checkTransfer', () => {
  it('needs two accounts, an amount, at most 8 decimals, not above the available balance', () => {
    expect(checkTransfer('SPOT', 'SPOT', '1', '5')).toBe('v.sameAccount');
    expect(checkTransfer('ASSETS', 'SPOT', '', '5')).toBe('v.amountRequired');
    expect(checkTransfer('ASSETS', 'SPOT', '0.000000001', '5')).toBe('v.amountDecimals');
    expect(checkTransfer('ASSETS', 'SPOT', '5.00000001', '5')).toBe('v.amountExceedsMax');
    expect(checkTransfer('ASSETS', 'SPOT', '5', '5')).toBeNull();
  });
});

describe('sanitizeAmount', () => {
  it('keeps digits, one point and the allowed decimals', () => {
    expect(sanitizeAmount('1a2.3.4', 8)).toBe('12.34');
    expect(sanitizeAmount('0.1234567', 6)).toBe('0.123456');
    expect(sanitizeAmount('5.5', 0)).toBe('55');
  });
});
