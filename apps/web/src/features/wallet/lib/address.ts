/**
 * Client-side check of a withdrawal address on an EVM network (spec section 5: "address required and correct"),
 * mirroring the server's (apps/server domains/wallet/address.ts): `0x` and 40 hex digits; all lower or all upper case
 * is accepted as is, mixed case must be the EIP-55 checksum (a mixed-case typo is caught rather than sent); the zero
 * address is refused. The server also refuses our own hot wallet and contract addresses, which the app cannot know.
 *
 * The four EVM networks (Ethereum, BNB Smart Chain, Arbitrum One, Polygon) share one address format, so an EVM address
 * cannot say which of them it is meant for; an address of a network of another family (TRON, Bitcoin, Aptos or Sui,
 * Solana) can be recognised, and is refused as the server refuses it (address_wrong_network) before anything is sent.
 */
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex } from '@noble/hashes/utils';

/** Why an address is refused (locale keys `v.address.*`), or null when it is fine. */
export type AddressProblem = 'required' | 'format' | 'checksum' | 'zero' | null;

/** Addresses of other network families: one list with the server (@exchange/api network-address.ts). */
export { otherNetworkOf, type OtherNetworkFamily } from '@exchange/api';

/** The EIP-55 checksummed form of a 0x-prefixed 40-hex-digit address. */
export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(hex)));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  return out;
}

/** Checks a withdrawal address (already trimmed). */
export function checkEvmAddress(address: string): AddressProblem {
  if (!address) return 'required';
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return 'format';
  const body = address.slice(2);
  if (/^0+$/.test(body)) return 'zero';
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && toChecksumAddress(address) !== address) return 'checksum';
  return null;
}
