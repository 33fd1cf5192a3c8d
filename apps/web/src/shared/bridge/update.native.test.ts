/**
 * Proves the update flow inside the native shell (update.ts with window.Capacitor saying native, the Capacitor side
 * replaced by a recorder of the same shape): the check asks with the shell's platform and the running bundle's
 * version; a release with a web bundle is downloaded from the server's absolute URL with its sha256, then 3 done
 * and the restart onto it 2 s later; a failed download is 4 failed with no restart; a binary release opens its
 * download page; nothing to install is 4 failed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const native = {
  installBundle: vi.fn(async (_url: string, _version: string, _sha: string) => true),
  restart: vi.fn(async () => undefined),
  runningVersion: vi.fn(async () => '1.2.0'),
};
vi.mock('./capacitor', () => ({ createCapacitorBridge: () => native }));

const { applyUpdate, checkForUpdate } = await import('./update');

beforeAll(() => {
  (window as unknown as { Capacitor: unknown }).Capacitor = { isNativePlatform: () => true, getPlatform: () => 'ios' };
});
afterAll(() => {
  delete (window as unknown as { Capacitor?: unknown }).Capacitor;
  vi.unstubAllGlobals();
});

const bundleOffer = {
  kind: 'release' as const,
  version: '1.3.0',
  reasonsZh: ['修复'],
  reasonsEn: ['Fixes'],
  force: true,
  bundle: { url: '/api/app/version/bundle?id=9', sha256: 'cd'.repeat(32), sizeBytes: 1000 },
  downloadUrl: '',
};

describe('update in the shell', () => {
  it('checks with the shell’s platform and running version', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (u: string) => {
        urls.push(u);
        return new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: { latest: null, updateAvailable: false } }));
      }),
    );
    expect(await checkForUpdate()).toBeNull();
    expect(urls).toEqual(['/api/app/version/latest?platform=ios&current=1.2.0']);
  });

  it('installs the web bundle, then restarts 2 s later', async () => {
    const states: number[] = [];
    const timers: number[] = [];
    let restarted = false;
    await applyUpdate(bundleOffer, (s) => states.push(s), { setTimer: (fn, ms) => (timers.push(ms), fn()), restart: () => (restarted = true) });
    expect(native.installBundle).toHaveBeenCalledWith(`${window.location.origin}/api/app/version/bundle?id=9`, '1.3.0', 'cd'.repeat(32));
    expect(states).toEqual([1, 3]);
    expect(timers).toEqual([2000]);
    expect(restarted).toBe(true);
  });

  it('reports 4 failed when the download fails', async () => {
    native.installBundle.mockResolvedValueOnce(false);
    const states: number[] = [];
    const restart = vi.fn();
    await applyUpdate(bundleOffer, (s) => states.push(s), { setTimer: (fn) => fn(), restart });
    expect(states).toEqual([1, 4]);
    expect(restart).not.toHaveBeenCalled();
  });

  it('opens the download page of a binary release; 4 failed when there is nothing to install', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const states: number[] = [];
    await applyUpdate({ ...bundleOffer, bundle: null, downloadUrl: 'https://store.test/app' }, (s) => states.push(s));
    expect(open).toHaveBeenCalledWith('https://store.test/app', '_system');
    expect(states).toEqual([1]);
    const none: number[] = [];
    await applyUpdate({ ...bundleOffer, bundle: null }, (s) => none.push(s));
    expect(none).toEqual([1, 4]);
  });
});
