/** A fetch stub that never answers: every query of the page stays pending for the test (first-load states). */
import { vi } from 'vitest';

/** Installs the stub (undo with vi.unstubAllGlobals()). */
export function stubPendingFetch(): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => {})),
  );
}
