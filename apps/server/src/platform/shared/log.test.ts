/** Proves that a failed query's parameters never reach the log, at any depth of `cause`, while the SQL text does. */
import { describe, expect, it } from 'vitest';
import { safeErrorSerializer } from './log';

describe('safeErrorSerializer', () => {
  it('removes params and the params line of the message and stack', () => {
    const inner = Object.assign(new Error('Failed query: insert into "users" values ($1, $2)\nparams: alice@example.com,$argon2id$secret'), {
      query: 'insert into "users" values ($1, $2)',
      params: ['alice@example.com', '$argon2id$secret'],
    });
    const outer = new Error('request failed', { cause: inner });
    const text = JSON.stringify(safeErrorSerializer(outer));
    expect(text).not.toContain('alice@example.com');
    expect(text).not.toContain('argon2id');
    expect(text).toContain('insert into');
    expect(text).toContain('[redacted]');
  });
});
