/**
 * Fastify's `trustProxy` from TRUST_PROXY (platform/config/env.ts). A hop count becomes a function trusting that many hops
 * counted from the socket's peer (Express's meaning): Fastify 5 itself trusts nothing for a bare number. A hop
 * count believes any peer to be a proxy, so it is safe only when the server is reachable through the proxies
 * alone; a list of the proxies' addresses is safer.
 */
import type { FastifyServerOptions } from 'fastify';
import { NON_PRODUCTION_ENVS, type Config } from '../config/env';

/** The `trustProxy` option of Fastify for the configured `trust`. */
export function fastifyTrustProxy(trust: boolean | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * A warning for a production server without TRUST_PROXY whose requests come from a loopback peer: a reverse proxy on
 * the same host then makes every client one IP, so one client's rate and login limits stop everyone. Answers the
 * check to run on each request's socket peer; it logs once (`warn`), then does nothing. Off outside production rules
 * and when TRUST_PROXY is set.
 */
export function loopbackPeerWarning(config: Pick<Config, 'nodeEnv' | 'trustProxy'>, warn: (msg: string) => void): (peer: string | undefined) => void {
  let warned = NON_PRODUCTION_ENVS.includes(config.nodeEnv) || config.trustProxy !== false;
  return (peer) => {
    if (warned || peer === undefined) return;
    if (peer === '::1' || peer.startsWith('127.') || peer.startsWith('::ffff:127.')) {
      warned = true;
      warn(
        `requests come from the loopback address ${peer} and TRUST_PROXY is not set: behind a proxy on this host every client shares one IP for the rate and login limits; set TRUST_PROXY to the proxy's address (e.g. loopback)`,
      );
    }
  };
}
