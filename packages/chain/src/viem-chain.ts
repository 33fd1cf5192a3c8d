/** viem's description of a chain by id, for wallet clients (the EVM chain named "ETH" in the exchange). */
import { defineChain, type Chain } from 'viem';

/** A viem Chain for `chainId` served at `rpcUrl` (native currency ETH, 18 decimals). */
export function devChainDefinition(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: chainId === 31337 ? 'Hardhat dev chain' : `EVM chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
