/**
 * Runs async work one at a time per key (e.g. per user): a call waits for the previous call of the same key to
 * settle, whatever its outcome; calls of other keys run freely. Keys with nothing queued are dropped. Serialises
 * within one process only (one process serves a user's writes).
 */

/** `serial(key, fn)`: runs `fn` after every earlier call of `key` settled; answers what `fn` answers or throws. */
export function createKeyedSerial(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const chains = new Map<string, Promise<unknown>>();
  return function serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = chains.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    chains.set(key, tail);
    void tail.then(() => {
      if (chains.get(key) === tail) chains.delete(key);
    });
    return next;
  };
}
