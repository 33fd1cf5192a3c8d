/** The loopback-peer warning (trust-proxy.ts): once, only under production rules without TRUST_PROXY. */
import { describe, expect, it } from 'vitest';
import { loopbackPeerWarning } from './trust-proxy';

function run(nodeEnv: string, trustProxy: false | number | string[], peers: (string | undefined)[]): string[] {
  const said: string[] = [];
  const check = loopbackPeerWarning({ nodeEnv, trustProxy }, (m) => said.push(m));
  for (const p of peers) check(p);
  return said;
}

describe('loopback peer warning', () => {
  it('warns once when a production server without TRUST_PROXY hears from a loopback peer', () => {
    const said = run('production', false, ['203.0.113.9', undefined, '127.0.0.1', '::1', '::ffff:127.0.0.1']);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^requests come from the loopback address 127\.0\.0\.1 and TRUST_PROXY is not set/);
    expect(run('staging', false, ['::ffff:127.0.0.1'])).toHaveLength(1);
  });
  it('says nothing in development or test, with TRUST_PROXY set, or for other peers', () => {
    expect(run('development', false, ['127.0.0.1'])).toEqual([]);
    expect(run('test', false, ['::1'])).toEqual([]);
    expect(run('production', ['loopback'], ['127.0.0.1'])).toEqual([]);
    expect(run('production', 1, ['127.0.0.1'])).toEqual([]);
    expect(run('production', false, ['10.0.0.1', '::ffff:10.0.0.1', '1270.0.0.1'])).toEqual([]);
  });
});
