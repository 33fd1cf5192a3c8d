/** The scale-out settings of platform/config/env.ts: ENGINE_TRANSPORT chooses the engine port, and NATS mode needs its servers. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env';
import { natsNames } from './nats-journal';

describe('scale-out configuration', () => {
  it('defaults to the embedded engine', () => {
    const c = loadConfig({ NODE_ENV: 'test' });
    expect([c.engineTransport, c.natsUrl, c.natsPrefix, c.natsReplicas, c.engineHttpPort]).toEqual(['embedded', undefined, 'EXCH', 1, 8090]);
  });

  it('NATS mode needs NATS_URL and DATABASE_URL; unknown transports are refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ENGINE_TRANSPORT: 'nats', DATABASE_URL: 'postgres://x/y' })).toThrow(/NATS_URL and DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', ENGINE_TRANSPORT: 'nats', NATS_URL: 'nats://x:4222' })).toThrow(/NATS_URL and DATABASE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', ENGINE_TRANSPORT: 'kafka' })).toThrow(/embedded or nats/);
    expect(() => loadConfig({ NODE_ENV: 'test', NATS_REPLICAS: '0' })).toThrow(/NATS_REPLICAS/);
    const c = loadConfig({
      NODE_ENV: 'test',
      ENGINE_TRANSPORT: 'NATS',
      NATS_URL: 'nats://a:4222,nats://b:4222',
      DATABASE_URL: 'postgres://x/y',
      NATS_PREFIX: 'EU1',
      NATS_REPLICAS: '3',
    });
    expect([c.engineTransport, c.natsUrl, c.natsPrefix, c.natsReplicas]).toEqual(['nats', 'nats://a:4222,nats://b:4222', 'EU1', 3]);
  });

  it('derives the stream, subject and snapshot bucket from the prefix, refusing names NATS would not take', () => {
    expect(natsNames('EU1')).toEqual({ stream: 'EU1', subject: 'EU1.cmd', snapshotBucket: 'EU1-snap' });
    expect(() => natsNames('a.b')).toThrow(/NATS_PREFIX/);
    expect(() => natsNames('')).toThrow(/NATS_PREFIX/);
  });
});
