// Proves the address check (its Keccak-256 is @noble/hashes'): the EIP-55 examples pass, a one-letter case change
// fails the checksum, all-lower and all-upper pass, and malformed and zero addresses are refused; addresses of networks
// outside the EVM family (TRON, Bitcoin legacy, P2SH and bech32, Aptos/Sui, Solana) are named by their family, as the
// server names them (address_wrong_network), while EVM addresses and half-typed addresses are not.
import { describe, expect, it } from 'vitest';
import { checkEvmAddress, otherNetworkOf, toChecksumAddress } from './address';

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

describe('otherNetworkOf', () => {
  it('names the family of an address of another network', () => {
    expect(otherNetworkOf('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TRON'); // USDT's TRC20 contract
    expect(otherNetworkOf(' TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7 ')).toBe('TRON');
    expect(otherNetworkOf('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe('BTC');
    expect(otherNetworkOf('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe('BTC');
    expect(otherNetworkOf('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe('BTC');
    expect(otherNetworkOf('BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ')).toBe('BTC');
    expect(otherNetworkOf('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBe('BTC');
    expect(otherNetworkOf('0x' + 'a1'.repeat(32))).toBe('APT_SUI');
    expect(otherNetworkOf('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe('SOL');
    expect(otherNetworkOf('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB')).toBe('SOL'); // USDT's SPL mint
  });
  it('says nothing of EVM addresses, half-typed or malformed input', () => {
    expect(otherNetworkOf('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(otherNetworkOf('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBeNull();
    expect(otherNetworkOf('')).toBeNull();
    expect(otherNetworkOf('TR7NHqjeKQxGTCi8q8ZY4pL8ot')).toBeNull();
    expect(otherNetworkOf('0x' + 'a1'.repeat(31))).toBeNull();
    expect(otherNetworkOf('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6O')).toBeNull(); // O is not base58
    expect(otherNetworkOf('hello world')).toBeNull();
  });
});
