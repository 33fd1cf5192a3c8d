/**
 * The bridge's native side (ARCHITECTURE.md section 10): the same calls as bridge.ts, made through Capacitor plugins.
 * This module is loaded only inside the native shell (bridge.ts imports it lazily), so none of it is in the web app's
 * initial JavaScript. Each plugin also has a web implementation (or none: then the call reports it could not be
 * done), which is what the unit tests run in jsdom.
 *
 * Plugins: @capacitor/status-bar (style and background with the theme), @capacitor-community/media (save to the
 * photo album) with @capacitor/filesystem's storage permission (Android 12 and older), capacitor-native-settings
 * (open the app's settings page when a permission was refused, spec section 6), @capacitor/share, @capacitor/network,
 * @capacitor/app (binary version, back to the foreground), @capgo/capacitor-updater (the live update of the web
 * bundle, manual mode: our server serves the bundles, nothing goes to Capgo's cloud).
 */
import { StatusBar, Style } from '@capacitor/status-bar';
import { Media } from '@capacitor-community/media';
import { Filesystem } from '@capacitor/filesystem';
import { AndroidSettings, IOSSettings, NativeSettings } from 'capacitor-native-settings';
import { Share } from '@capacitor/share';
import { Network } from '@capacitor/network';
import { App } from '@capacitor/app';
import { CapacitorUpdater } from '@capgo/capacitor-updater';
import { Capacitor } from '@capacitor/core';

/** Status bar text colour: 'dark' text on a light bar (day), 'light' text on a dark bar (night). */
export type StatusBarStyle = 'light' | 'dark';
/** Outcome of saving an image: saved, the photo permission refused (prompt to open settings), or failed. */
export type SaveImageResult = 'saved' | 'denied' | 'failed';
/** Outcome of a share: shared, cancelled by the user, or not possible here. */
export type ShareResult = 'shared' | 'cancelled' | 'unavailable';

/** The plugins the native bridge uses (the real ones by default; tests may pass others with the same shape). */
export interface BridgePlugins {
  statusBar: Pick<typeof StatusBar, 'setStyle' | 'setBackgroundColor'>;
  media: Pick<typeof Media, 'savePhoto' | 'getAlbums' | 'createAlbum'>;
  filesystem: Pick<typeof Filesystem, 'checkPermissions' | 'requestPermissions'>;
  settings: Pick<typeof NativeSettings, 'open'>;
  share: Pick<typeof Share, 'share' | 'canShare'>;
  network: Pick<typeof Network, 'getStatus' | 'addListener'>;
  app: Pick<typeof App, 'getInfo' | 'addListener'>;
  updater: Pick<typeof CapacitorUpdater, 'notifyAppReady' | 'download' | 'next' | 'reload' | 'current'>;
}

/** The real plugins. */
export const CAPACITOR_PLUGINS: BridgePlugins = {
  statusBar: StatusBar,
  media: Media,
  filesystem: Filesystem,
  settings: NativeSettings,
  share: Share,
  network: Network,
  app: App,
  updater: CapacitorUpdater,
};

/** A refused photo/storage permission, as the plugins word it (iOS: "Unable to access album", denied authorisation). */
const DENIED_RE = /denied|permission|not authori[sz]ed|unable to access/i;

/** The album images are saved to on Android (the plugin needs one there; iOS saves to the camera roll). */
export const ALBUM_NAME = 'Exchange';

/** The native bridge over `p`; `platform` is Capacitor's ('android', 'ios' or 'web'). */
export function createCapacitorBridge(p: BridgePlugins = CAPACITOR_PLUGINS, platform: string = Capacitor.getPlatform()) {
  /** The app's album on Android (created on first use), undefined elsewhere. */
  async function albumIdentifier(): Promise<string | undefined> {
    if (platform !== 'android') return undefined;
    const find = async () => (await p.media.getAlbums()).albums.find((a) => a.name === ALBUM_NAME)?.identifier;
    const found = await find();
    if (found) return found;
    await p.media.createAlbum({ name: ALBUM_NAME });
    return find();
  }

  return {
    /** Sets the status bar text style and (Android) its background; false when the plugin cannot (web). */
    async setStatusBarStyle(style: StatusBarStyle, background: string): Promise<boolean> {
      try {
        // Capacitor's Style.Dark means light text for dark backgrounds.
        await p.statusBar.setStyle({ style: style === 'light' ? Style.Dark : Style.Light });
        await p.statusBar.setBackgroundColor({ color: background }).catch(() => undefined);
        return true;
      } catch {
        return false;
      }
    },

    /**
     * Saves a PNG data: URL to the photo album (spec section 6): asks for the storage permission where the system
     * has one (Android 12 and older; newer Android and iOS answer granted and iOS asks for the photo library on the
     * save itself); a refusal at either step answers 'denied' so the app can offer to open the settings.
     */
    async saveImage(dataUrl: string, fileName: string): Promise<SaveImageResult> {
      try {
        let perm = (await p.filesystem.checkPermissions()).publicStorage;
        if (perm === 'prompt' || perm === 'prompt-with-rationale') perm = (await p.filesystem.requestPermissions()).publicStorage;
        if (perm === 'denied') return 'denied';
      } catch {
        // no storage permission on this system (the web implementation, or iOS): the save asks if it must
      }
      try {
        const albumId = await albumIdentifier();
        await p.media.savePhoto({ path: dataUrl, fileName: fileName.replace(/\.[a-z0-9]+$/i, ''), ...(albumId ? { albumIdentifier: albumId } : {}) });
        return 'saved';
      } catch (e) {
        return DENIED_RE.test(e instanceof Error ? e.message : String(e)) ? 'denied' : 'failed';
      }
    },

    /** Opens the app's page in the system settings (to grant a refused permission); false when it could not. */
    async openAppSettings(): Promise<boolean> {
      try {
        return (await p.settings.open({ optionAndroid: AndroidSettings.ApplicationDetails, optionIOS: IOSSettings.App })).status;
      } catch {
        return false;
      }
    },

    /** Shares a text and link (the system share sheet; on the web the Web Share API). */
    async share(opts: { title: string; text: string; url?: string }): Promise<ShareResult> {
      try {
        if (!(await p.share.canShare()).value) return 'unavailable';
        await p.share.share({ title: opts.title, text: opts.text, ...(opts.url ? { url: opts.url } : {}), dialogTitle: opts.title });
        return 'shared';
      } catch (e) {
        return /cancel|abort/i.test(e instanceof Error ? `${e.name} ${e.message}` : String(e)) ? 'cancelled' : 'unavailable';
      }
    },

    /** Whether the device is connected now. */
    async isConnected(): Promise<boolean> {
      return (await p.network.getStatus()).connected;
    },

    /** Calls `cb` with each change of connectivity; returns the unsubscribe. */
    watchNetwork(cb: (connected: boolean) => void): () => void {
      const handle = p.network.addListener('networkStatusChange', (s) => cb(s.connected));
      return () => void handle.then((h) => h.remove());
    },

    /** Calls `cb` each time the app comes back to the foreground; returns the unsubscribe. */
    onResume(cb: () => void): () => void {
      const handle = p.app.addListener('resume', cb);
      return () => void handle.then((h) => h.remove());
    },

    /**
     * The version the shell runs: the live-updated web bundle's version when one is applied (the updater's current
     * bundle is not 'builtin'), else the binary's; null when neither plugin answers (the web).
     */
    async runningVersion(): Promise<string | null> {
      try {
        const cur = await p.updater.current();
        if (cur.bundle.version && cur.bundle.version !== 'builtin' && cur.bundle.id !== 'builtin') return cur.bundle.version;
      } catch {
        // no updater: the binary's version
      }
      try {
        return (await p.app.getInfo()).version;
      } catch {
        return null;
      }
    },

    /** Tells the updater this bundle started fine (else it rolls back to the previous one at the next start). */
    async notifyAppReady(): Promise<void> {
      await p.updater.notifyAppReady().catch(() => undefined);
    },

    /**
     * Downloads a web bundle (zip, absolute URL, its sha256) under `version` and makes it the bundle of the next start
     * (the updater's `next`; `restart` applies it). Resolves true when it is in place; false when the download or the
     * checksum failed (state 4, update failed).
     */
    async installBundle(url: string, version: string, sha256: string): Promise<boolean> {
      try {
        const b = await p.updater.download({ url, version, checksum: sha256 });
        await p.updater.next({ id: b.id });
        return true;
      } catch {
        return false;
      }
    },

    /** Restarts the web app on the bundle set by installBundle (state 3: after 2 s). */
    async restart(): Promise<void> {
      await p.updater.reload();
    },
  };
}

/** The native bridge's type. */
export type CapacitorBridge = ReturnType<typeof createCapacitorBridge>;
