/**
 * HD derivation of deposit addresses (BIP-32 / BIP-44, coin type 60 = Ethereum). The server keeps only the
 * account xpub m/44'/60'/0' (from the signer, src/signer.ts): it derives every user's deposit address
 * m/44'/60'/0'/0/{userId} without holding a private key. The seed stays inside the signer.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { HDKey } from '@scure/bip32';
import { getAddress, keccak256, toHex, type Address } from 'viem';
import { randomBytes } from 'node:crypto';

/** BIP-44 path of the deposit account: its xpub derives every deposit address. */
export const DEPOSIT_ACCOUNT_PATH = "m/44'/60'/0'";
/** BIP-44 path of the hot wallet's key (the one address that pays withdrawals and receives sweeps). */
export const HOT_WALLET_PATH = "m/44'/60'/1'/0/0";
/** Deposit indexes are non-hardened BIP-32 children: 0 .. 2^31 - 1. */
export const MAX_DEPOSIT_INDEX = 0x7fffffff;

/** 32 bytes from the OS CSPRNG: a new wallet seed (BIP-32 master seed). Store it as a secret. */
export function newWalletSeed(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

/**
 * The deposit account's extended public key ("xpub...", BIP-32 serialization, mainnet version bytes) at
 * m/44'/60'/0' of `seed` (16..64 bytes; throws otherwise).
 */
export function depositXpubFromSeed(seed: Uint8Array): string {
  return HDKey.fromMasterSeed(seed).derive(DEPOSIT_ACCOUNT_PATH).publicExtendedKey;
}

/** The EIP-55 checksummed Ethereum address of a 33-byte compressed or 65-byte uncompressed secp256k1 key. */
export function publicKeyToEthAddress(publicKey: Uint8Array): Address {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return getAddress(`0x${keccak256(toHex(uncompressed.subarray(1))).slice(-40)}`);
}

/**
 * The deposit address number `index` (the user id) under the account xpub: child 0/index, i.e. the address of
 * m/44'/60'/0'/0/{index} when `xpub` is depositXpubFromSeed(seed). EIP-55 checksummed. Throws RangeError for an
 * index outside 0..MAX_DEPOSIT_INDEX and Error for a malformed xpub or one that holds a private key.
 */
export function depositAddress(xpub: string, index: number): Address {
  if (!Number.isSafeInteger(index) || index < 0 || index > MAX_DEPOSIT_INDEX) throw new RangeError(`deposit index out of range: ${index}`);
  if (!xpub.startsWith('xpub')) throw new Error('depositAddress: expected an extended public key (xpub...)');
  const child = HDKey.fromExtendedKey(xpub).deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('depositAddress: derivation gave no public key');
  return publicKeyToEthAddress(child.publicKey);
}
