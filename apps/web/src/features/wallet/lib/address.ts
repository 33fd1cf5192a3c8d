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

/** A family of networks outside the EVM one whose addresses can be told apart (locale keys `addressFamily.*`). */
export type OtherNetworkFamily = 'TRON' | 'BTC' | 'APT_SUI' | 'SOL';

/** Base58 (Bitcoin's alphabet: no 0, O, I, l). */
const B58 = '[1-9A-HJ-NP-Za-km-z]';
/**
 * Address formats of networks outside the EVM family, in the server's order (a TRON address is also base58 of
 * Solana's length: the first match names it).
 */
const OTHER_NETWORKS: readonly { family: OtherNetworkFamily; re: RegExp }[] = [
  { family: 'TRON', re: new RegExp(`^T${B58}{33}$`) },
  { family: 'BTC', re: /^(bc1|tb1)[02-9ac-hj-np-z]{11,71}$/i },
  { family: 'BTC', re: new RegExp(`^[13]${B58}{25,34}$`) },
  { family: 'APT_SUI', re: /^0x[0-9a-fA-F]{64}$/ },
  { family: 'SOL', re: new RegExp(`^${B58}{32,44}$`) },
];

/** The family of `address` (trimmed) when it is an address of a network outside the EVM family, else null. */
export function otherNetworkOf(address: string): OtherNetworkFamily | null {
  const s = address.trim();
  return OTHER_NETWORKS.find((n) => n.re.test(s))?.family ?? null;
}

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
