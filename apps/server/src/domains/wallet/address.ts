/**
 * Withdrawal address checks for the EVM networks (malformed, lowercase-mismatched
 * checksum, zero and contract-self addresses; not our own hot wallet; not another network's address).
 *
 * The four networks (Ethereum, BNB Smart Chain, Arbitrum One, Polygon) share one address format, so an EVM address
 * cannot say which of them it is meant for; what can be told is an address of a network of another family pasted
 * into an EVM network (TRON's T..., Bitcoin's 1.../3.../bc1..., a 32-byte 0x... of Aptos or Sui, Solana's base58;
 * @exchange/api otherNetworkOf, the list the app checks as the address is typed): address_wrong_network, refused
 * before anything is held.
 *
 * An address is 0x + 40 hex digits. All lower case (or all upper case) carries no checksum and is accepted; mixed
 * case must be the EIP-55 checksum (viem `getAddress`), else address_invalid. The zero address and the coin's own
 * token contract are address_invalid (funds sent there are lost). Our hot wallet and any of our users' deposit
 * addresses are address_internal (a transfer between two users is not a chain withdrawal).
 */
import { getAddress } from 'viem';
import { otherNetworkOf } from '@exchange/api';
import { AppError } from '../../platform/shared/errors';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ZERO = '0x0000000000000000000000000000000000000000';

/** The EIP-55 form of `input` (trimmed), or throws AppError address_invalid (400, field `field`). */
export function parseEvmAddress(input: string, field = 'address'): string {
  const s = input.trim();
  if (!HEX_ADDRESS.test(s)) throw new AppError('address_invalid', 400, field);
  const body = s.slice(2);
  const checksummed = getAddress(`0x${body.toLowerCase()}`);
  // Mixed case is a checksum claim: it must be exactly the EIP-55 form.
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && s !== checksummed) throw new AppError('address_invalid', 400, field);
  return checksummed;
}

/** What the checks need to know about our own addresses. */
export interface OwnAddresses {
  /** The hot wallet (any case), null when unknown. */
  hotWallet: string | null;
  /** True when the address (EIP-55) is one of our users' deposit addresses. */
  isDepositAddress(address: string): boolean;
}

/**
 * The EIP-55 destination of a withdrawal of a coin whose token contract is `contract` ('' for the native coin).
 * Throws address_wrong_network (another network family's address), address_invalid (malformed, bad checksum, zero,
 * the token contract) or address_internal (ours).
 */
export function checkWithdrawAddress(input: string, contract: string, own: OwnAddresses, field = 'address'): string {
  if (otherNetworkOf(input) !== null) throw new AppError('address_wrong_network', 400, field);
  const a = parseEvmAddress(input, field);
  if (a === ZERO) throw new AppError('address_invalid', 400, field);
  if (contract !== '' && a.toLowerCase() === contract.toLowerCase()) throw new AppError('address_invalid', 400, field);
  if ((own.hotWallet !== null && a.toLowerCase() === own.hotWallet.toLowerCase()) || own.isDepositAddress(a)) {
    throw new AppError('address_internal', 400, field);
  }
  return a;
}
