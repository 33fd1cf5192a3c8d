/**
 * Proves when the service worker is registered: in a production build in a browser, /sw.js with scope /, 5 s after
 * the page has loaded and not before (its precaching stays out of the first screen); never in the dev server, inside the native shell (its live updater owns the
 * bundle) or where the browser has no service workers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_WORKER_URL, SW_AFTER_LOAD_MS, registerServiceWorker } from './register-sw';

function stubWorkers() {
  const register = vi.fn(async () => ({}));
  Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
  return register;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  delete (window as unknown as { Capacitor?: unknown }).Capacitor;
  delete (navigator as unknown as { serviceWorker?: unknown }).serviceWorker;
});

describe('registerServiceWorker', () => {
  it('registers /sw.js for the whole app in a production build, 5 s after the load and not before', () => {
    vi.useFakeTimers();
    vi.stubEnv('DEV', false);
    const register = stubWorkers();
    registerServiceWorker();
    expect(SW_AFTER_LOAD_MS).toBe(5000);
    vi.advanceTimersByTime(SW_AFTER_LOAD_MS - 1);
    expect(register).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(SERVICE_WORKER_URL).toBe('/sw.js');
    expect(register).toHaveBeenCalledTimes(1);
    expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
  });

  it('registers nothing in the dev server or inside the shell', () => {
    const register = stubWorkers();
    vi.stubEnv('DEV', true);
    registerServiceWorker();
    vi.stubEnv('DEV', false);
    (window as unknown as { Capacitor: unknown }).Capacitor = { isNativePlatform: () => true, getPlatform: () => 'android' };
    vi.useFakeTimers();
    registerServiceWorker();
    vi.advanceTimersByTime(60_000);
    expect(register).not.toHaveBeenCalled();
  });

  it('does nothing without service workers', () => {
    vi.stubEnv('DEV', false);
    expect(() => registerServiceWorker()).not.toThrow();
  });
});
