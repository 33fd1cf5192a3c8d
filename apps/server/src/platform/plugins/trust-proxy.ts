/**
 * Fastify's `trustProxy` from TRUST_PROXY (platform/config/env.ts). A hop count becomes a function trusting that many hops
 * counted from the socket's peer (Express's meaning): Fastify 5 itself trusts nothing for a bare number. A hop
 * count believes any peer to be a proxy, so it is safe only when the server is reachable through the proxies
 * alone; a list of the proxies' addresses is safer.
 */
import type { FastifyServerOptions } from 'fastify';

/** The `trustProxy` option of Fastify for the configured `trust`. */
export function fastifyTrustProxy(trust: boolean | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}
