/**
 * Idempotency keys of withdrawals and transfers (ARCHITECTURE.md, convention 7): one fresh id per form submission,
 * kept while the same submission is retried (a timeout, a wrong PIN), so a retry returns the first result instead of
 * a second withdrawal. crypto.randomUUID needs a secure context; plain http on a LAN address falls back to
 * getRandomValues.
 */

/** A random RFC 4122 version-4 id. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Holds the client id of the current submission: `idFor(fields)` returns the same id as long as `fields` (what the
 * request would send, serialised) stay the same, and a new one when they change or after `reset()` (a success).
 */
export function clientIdKeeper() {
  let key = '';
  let id = '';
  return {
    idFor(fields: string): string {
      if (fields !== key || !id) {
        key = fields;
        id = newClientId();
      }
      return id;
    },
    reset(): void {
      key = '';
      id = '';
    },
  };
}
