/** The scale-out journal's durability warning (nats-journal.ts durabilityWarning): under 3 replicas only. */
import { describe, expect, it } from 'vitest';
import { durabilityWarning } from './nats-journal';

describe('JetStream durability warning', () => {
  it('warns under 3 replicas, naming the server version and both remedies; none with 3 or more', () => {
    expect(durabilityWarning(1, '2.9.10')).toBe(
      'the journal stream has 1 replica on nats-server 2.9.10: an acknowledged command survives a power loss only if every node sets jetstream { sync_interval: always } (nats-server 2.10 or later); otherwise run NATS_REPLICAS=3 across failure domains (docs/deploy.md)',
    );
    expect(durabilityWarning(2, '2.10.4')).toMatch(/^the journal stream has 2 replicas on nats-server 2\.10\.4:/);
    expect(durabilityWarning(3, '2.10.4')).toBeNull();
    expect(durabilityWarning(5, '2.10.4')).toBeNull();
  });
});
