// Proves the address check (its Keccak-256 is @noble/hashes'): the EIP-55 examples pass, a one-letter case change
// fails the checksum, all-lower and all-upper pass, and malformed and zero addresses are refused.
import { describe, expect, it } from 'vitest';
import { checkEvmAddress, toChecksumAddress } from './address';

describe('checkEvmAddress', () => {
  const EIP55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];

  it('accepts the EIP-55 examples and computes their checksum', () => {
    for (const a of EIP55) {
      expect(checkEvmAddress(a), a).toBeNull();
      expect(toChecksumAddress(a.toLowerCase())).toBe(a);
    }
  });
  it('refuses a mixed-case address with a wrong checksum, accepts one-case addresses', () => {
    expect(checkEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe('checksum');
    expect(checkEvmAddress(EIP55[0]!.toLowerCase())).toBeNull();
    expect(checkEvmAddress('0x' + EIP55[0]!.slice(2).toUpperCase())).toBeNull();
  });
  it('refuses empty, malformed and zero addresses', () => {
    expect(checkEvmAddress('')).toBe('required');
    expect(checkEvmAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe('format');
    expect(checkEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toBe('format');
    expect(checkEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toBe('format');
    expect(checkEvmAddress('0x' + '0'.repeat(40))).toBe('zero');
  });
});
