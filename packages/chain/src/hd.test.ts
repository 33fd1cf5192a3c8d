/**
 * Proves the HD derivation against the public BIP-39/BIP-44 vector of the mnemonic "abandon x11 about" (no
 * passphrase): its m/44'/60'/0'/0/0 address is 0x9858EfFD232B4033E47d90003D41EC34EcaEda94, and the addresses
 * derived from the account xpub equal viem's own derivation of the full paths from the mnemonic (the signer's
 * hot wallet m/44'/60'/1'/0/0 too). No dev node.
 */
import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey } from '@scure/bip32';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { depositAddress, depositXpubFromSeed, MAX_DEPOSIT_INDEX, newWalletSeed } from './hd';
import { createSigner } from './signer';

const ABANDON = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const abandonSeed = mnemonicToSeedSync(ABANDON);

describe('HD deposit addresses', () => {
  it("derives the known m/44'/60'/0'/0/0 address of the \"abandon ... about\" mnemonic from the account xpub", () => {
    const xpub = depositXpubFromSeed(abandonSeed);
    expect(xpub.startsWith('xpub')).toBe(true);
    expect(depositAddress(xpub, 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  });

  it("the account xpub is the public key of m/44'/60'/0' and holds no private key", () => {
    const xpub = depositXpubFromSeed(abandonSeed);
    const key = HDKey.fromExtendedKey(xpub);
    expect(key.privateKey).toBeNull();
    expect(key.depth).toBe(3);
    expect(xpub).toBe(HDKey.fromMasterSeed(abandonSeed).derive("m/44'/60'/0'").publicExtendedKey);
  });

  it("user n gets the address of m/44'/60'/0'/0/n (viem derives the same from the mnemonic), EIP-55 checksummed", () => {
    const xpub = depositXpubFromSeed(abandonSeed);
    for (const userId of [1, 2, 7, 1000, 123456]) {
      const addr = depositAddress(xpub, userId);
      expect(addr).toBe(mnemonicToAccount(ABANDON, { addressIndex: userId }).address);
      expect(addr).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(addr).not.toBe(addr.toLowerCase());
    }
    expect(new Set([0, 1, 2, 3].map((i) => depositAddress(xpub, i))).size).toBe(4);
  });

  it('rejects indexes outside 0..2^31-1 and an extended private key', () => {
    const xpub = depositXpubFromSeed(abandonSeed);
    expect(() => depositAddress(xpub, -1)).toThrow(RangeError);
    expect(() => depositAddress(xpub, MAX_DEPOSIT_INDEX + 1)).toThrow(RangeError);
    expect(() => depositAddress(xpub, 1.5)).toThrow(RangeError);
    expect(depositAddress(xpub, MAX_DEPOSIT_INDEX)).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const xprv = HDKey.fromMasterSeed(abandonSeed).derive("m/44'/60'/0'").privateExtendedKey;
    expect(() => depositAddress(xprv, 0)).toThrow(/extended public key/);
  });

  it('newWalletSeed gives 32 fresh random bytes', () => {
    const a = newWalletSeed();
    const b = newWalletSeed();
    expect(a.length).toBe(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it("the signer exposes the same xpub and the hot wallet of m/44'/60'/1'/0/0", () => {
    const signer = createSigner(abandonSeed, 31337);
    expect(signer.depositXpub).toBe(depositXpubFromSeed(abandonSeed));
    expect(signer.hotWalletAddress).toBe(mnemonicToAccount(ABANDON, { accountIndex: 1 }).address);
    expect(signer.hotWalletAddress).not.toBe(depositAddress(signer.depositXpub, 0));
    expect(Object.keys(signer).sort()).toEqual(['depositXpub', 'hotWalletAddress', 'signWithdrawal']);
  });
});
