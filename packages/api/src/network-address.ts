/**
 * Addresses of networks outside the EVM family, told apart from an EVM address (0x + 40 hex) by their format. The four
 * networks the wallet carries USDT on (Ethereum, BNB Smart Chain, Arbitrum One, Polygon) share one address format, so
 * an EVM address cannot say which of them it is meant for; an address of another family pasted into an EVM network can
 * be refused before anything is held (the server's address_wrong_network, the withdraw screen's check as it is typed).
 * One list for the server and the app.
 */

/** A family of networks outside the EVM one whose addresses can be told apart. */
export type OtherNetworkFamily = 'TRON' | 'BTC' | 'APT_SUI' | 'SOL';

/** Base58 (Bitcoin's alphabet: no 0, O, I, l). */
const B58 = '[1-9A-HJ-NP-Za-km-z]';

/**
 * Address formats of networks outside the EVM family, in the order they are tried (a TRON address is also base58 of
 * Solana's length: the first match names it): TRON `T` + 33 base58; Bitcoin bech32 (`bc1`/`tb1`, any one case) and
 * legacy or P2SH (`1`/`3` + 25-34 base58); Aptos and Sui (0x + 64 hex); Solana (32-44 base58).
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
