/**
 * Proves the bridge's Capacitor side (capacitor.ts) two ways.
 * 1. With the real plugins, which in jsdom run their web implementations: sharing goes to the Web Share API
 *    (shared, cancelled, unavailable without it); the network status follows navigator.onLine and the window's
 *    online/offline events; the status bar and the photo album have no web implementation, so they report that
 *    nothing was done (false, 'failed') rather than pretend; the running version is unknown (null) on the web.
 * 2. With plugin stand-ins of the same shape, our own logic: the permission flow of spec section 6 (refused at the
 *    check or at the request -> 'denied' and nothing saved; asked then granted -> saved; a photo-library refusal
 *    on save -> 'denied'; another error -> 'failed'; on Android into the app's album, created once), the status bar style mapping, the live update (download with
 *    the sha256, set as next bundle; a failed download -> false) and the running version (a live bundle's, else
 *    the binary's).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Style } from '@capacitor/status-bar';
import { createCapacitorBridge, type BridgePlugins } from './capacitor';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('with the plugins’ web implementations', () => {
  const bridge = createCapacitorBridge();

  it('shares through the Web Share API', async () => {
    const share = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, share, onLine: true });
    expect(await bridge.share({ title: 'Invite', text: 'Join me', url: 'https://x.test/r?code=ABC' })).toBe('shared');
    expect(share).toHaveBeenCalledWith({ title: 'Invite', text: 'Join me', url: 'https://x.test/r?code=ABC' });
    share.mockRejectedValueOnce(Object.assign(new Error('Share canceled'), { name: 'AbortError' }));
    expect(await bridge.share({ title: 'Invite', text: 'Join me' })).toBe('cancelled');
  });

  it('reports sharing unavailable without the Web Share API', async () => {
    vi.stubGlobal('navigator', { ...navigator, share: undefined });
    expect(await bridge.share({ title: 'Invite', text: 'Join me' })).toBe('unavailable');
  });

  it('follows the network status of the browser', async () => {
    const seen: boolean[] = [];
    const stop = bridge.watchNetwork((c) => seen.push(c));
    await new Promise((r) => setTimeout(r, 20)); // the web implementation loads lazily
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    stop();
    await new Promise((r) => setTimeout(r, 20));
    window.dispatchEvent(new Event('offline'));
    expect(seen).toEqual([false, true]);
    expect(await bridge.isConnected()).toBe(navigator.onLine);
  });

  it('does not pretend: no status bar, no album, no version on the web', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await bridge.setStatusBarStyle('light', '#0b0e14')).toBe(false);
    expect(await bridge.saveImage('data:image/png;base64,iVBORw0KGgo=', 'poster.png')).toBe('failed');
    expect(await bridge.runningVersion()).toBeNull();
    expect(await bridge.openAppSettings()).toBe(false);
  });
});

/** Plugin stand-ins recording their calls. */
function fakePlugins(over: { perm?: string; requested?: string; saveError?: string; downloadError?: string; bundleVersion?: string } = {}) {
  const calls: string[] = [];
  const albums: string[] = [];
  const p = {
    statusBar: {
      setStyle: vi.fn(async (o: { style: Style }) => void calls.push(`style:${o.style}`)),
      setBackgroundColor: vi.fn(async (o: { color: string }) => void calls.push(`bg:${o.color}`)),
    },
    filesystem: {
      checkPermissions: vi.fn(async () => ({ publicStorage: over.perm ?? 'granted' })),
      requestPermissions: vi.fn(async () => {
        calls.push('request');
        return { publicStorage: over.requested ?? 'granted' };
      }),
    },
    media: {
      getAlbums: vi.fn(async () => ({ albums: albums.map((name) => ({ name, identifier: `id-${name}` })) })),
      createAlbum: vi.fn(async (o: { name: string }) => {
        calls.push(`album:${o.name}`);
        albums.push(o.name);
      }),
      savePhoto: vi.fn(async (o: { path: string; fileName?: string; albumIdentifier?: string }) => {
        calls.push(`save:${o.fileName}${o.albumIdentifier ? `@${o.albumIdentifier}` : ''}`);
        if (over.saveError) throw new Error(over.saveError);
        return { filePath: '/album/poster.png' };
      }),
    },
    settings: { open: vi.fn(async () => ({ status: true })) },
    share: { share: vi.fn(), canShare: vi.fn() },
    network: { getStatus: vi.fn(), addListener: vi.fn() },
    app: { getInfo: vi.fn(async () => ({ version: '1.4', build: '14', id: 'x', name: 'Exchange' })), addListener: vi.fn() },
    updater: {
      notifyAppReady: vi.fn(async () => ({})),
      download: vi.fn(async (o: { url: string; version: string; checksum?: string }) => {
        calls.push(`download:${o.url}:${o.version}:${o.checksum}`);
        if (over.downloadError) throw new Error(over.downloadError);
        return { id: 'b7', version: o.version };
      }),
      next: vi.fn(async (o: { id: string }) => void calls.push(`next:${o.id}`)),
      reload: vi.fn(async () => void calls.push('reload')),
      current: vi.fn(async () => ({ bundle: { id: over.bundleVersion ? 'b7' : 'builtin', version: over.bundleVersion ?? 'builtin' }, native: '1.4' })),
    },
  };
  return { plugins: p as unknown as BridgePlugins, calls, p };
}

describe('our logic over the plugins', () => {
  it('maps the status bar style (Capacitor’s Dark = light text) and sets the background', async () => {
    const { plugins, calls } = fakePlugins();
    const b = createCapacitorBridge(plugins, 'ios');
    expect(await b.setStatusBarStyle('light', '#0b0e14')).toBe(true);
    expect(await b.setStatusBarStyle('dark', '#ffffff')).toBe(true);
    expect(calls).toEqual([`style:${Style.Dark}`, 'bg:#0b0e14', `style:${Style.Light}`, 'bg:#ffffff']);
  });

  it('saves when the permission is granted, or asked and granted', async () => {
    for (const perm of ['granted', 'prompt', 'prompt-with-rationale']) {
      const { plugins, calls } = fakePlugins({ perm });
      expect(await createCapacitorBridge(plugins, 'ios').saveImage('data:image/png;base64,AAAA', 'poster-ABC.png')).toBe('saved');
      expect(calls).toEqual(perm === 'granted' ? ['save:poster-ABC'] : ['request', 'save:poster-ABC']);
    }
  });

  it('answers denied, saving nothing, when the permission is refused', async () => {
    const refusedBefore = fakePlugins({ perm: 'denied' });
    expect(await createCapacitorBridge(refusedBefore.plugins, 'ios').saveImage('data:image/png;base64,AAAA', 'p.png')).toBe('denied');
    expect(refusedBefore.calls).toEqual([]);
    const refusedNow = fakePlugins({ perm: 'prompt', requested: 'denied' });
    expect(await createCapacitorBridge(refusedNow.plugins, 'ios').saveImage('data:image/png;base64,AAAA', 'p.png')).toBe('denied');
    expect(refusedNow.calls).toEqual(['request']);
    const photoLibrary = fakePlugins({ saveError: 'Unable to access album' });
    expect(await createCapacitorBridge(photoLibrary.plugins, 'ios').saveImage('data:image/png;base64,AAAA', 'p.png')).toBe('denied');
    const other = fakePlugins({ saveError: 'Disk full' });
    expect(await createCapacitorBridge(other.plugins, 'ios').saveImage('data:image/png;base64,AAAA', 'p.png')).toBe('failed');
  });

  it('saves into the app’s album on Android, creating it once', async () => {
    const { plugins, calls } = fakePlugins();
    const b = createCapacitorBridge(plugins, 'android');
    expect(await b.saveImage('data:image/png;base64,AAAA', 'poster.png')).toBe('saved');
    expect(await b.saveImage('data:image/png;base64,AAAA', 'qr.png')).toBe('saved');
    expect(calls).toEqual(['album:Exchange', 'save:poster@id-Exchange', 'save:qr@id-Exchange']);
  });

  it('opens the app’s settings page', async () => {
    const { plugins, p } = fakePlugins();
    expect(await createCapacitorBridge(plugins, 'ios').openAppSettings()).toBe(true);
    expect(p.settings.open).toHaveBeenCalledWith({ optionAndroid: 'application_details', optionIOS: 'app' });
  });

  it('installs a live bundle with its checksum for the next start, and restarts on it', async () => {
    const ok = fakePlugins();
    const b = createCapacitorBridge(ok.plugins, 'ios');
    expect(await b.installBundle('https://ex.test/api/app/version/bundle?id=3', '1.3.0', 'ab12')).toBe(true);
    await b.restart();
    expect(ok.calls).toEqual(['download:https://ex.test/api/app/version/bundle?id=3:1.3.0:ab12', 'next:b7', 'reload']);
    const bad = fakePlugins({ downloadError: 'checksum mismatch' });
    expect(await createCapacitorBridge(bad.plugins, 'ios').installBundle('https://ex.test/b.zip', '1.3.0', 'ab12')).toBe(false);
    expect(bad.calls).toEqual(['download:https://ex.test/b.zip:1.3.0:ab12']);
  });

  it('runs the live bundle’s version, else the binary’s', async () => {
    expect(await createCapacitorBridge(fakePlugins({ bundleVersion: '1.3.0' }).plugins, 'ios').runningVersion()).toBe('1.3.0');
    expect(await createCapacitorBridge(fakePlugins().plugins, 'ios').runningVersion()).toBe('1.4');
  });
});
