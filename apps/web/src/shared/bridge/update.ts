/**
 * The update flow (spec section 4 "Native update flow: check, show dialog with reasons, start update; states 1
 * updating, 3 done (restart after 2 s), 4 failed"; messages of section 8: already latest version, updating, update
 * complete, update failed).
 *
 * Check: the latest version the operators published for this platform (GET app/version/latest) against the running
 * one; on the web, failing that, a different build deployed (/version.json, written by the build) is offered too,
 * without reasons. Apply, by what the offer carries:
 * - a web bundle (shell): the live-update plugin downloads the zip from our server, checks its sha256 and sets it
 *   for the next start; done -> restart after 2 s; a failed download or checksum -> failed;
 * - a binary release (shell, no bundle): the store or APK page is opened;
 * - the web: the deployed build must be at least the offered version (/version.json); then the waiting service
 *   worker (if any) is told to take over and the page reloads after 2 s; an older deployment -> failed.
 */
import { APP_VERSION_PATHS, type AppBundle, type LatestVersion } from '@exchange/api';
import { create } from 'zustand';
import { apiGet } from '../api-client';
import { serverUrl } from '../origin';
import { RUNNING_BUILD_ID, bridgePlatform, isNativeShell, loadCapacitorBridge, normalizeVersion, runningVersion } from './bridge';

/** Delay between "update complete" and the restart (spec section 4), ms. */
export const RESTART_DELAY_MS = 2000;

/** The update states of the spec: 1 updating, 3 done (restart after 2 s), 4 failed. */
export type UpdateState = 1 | 3 | 4;

/** What the new-version dialog offers. */
export interface UpdateOffer {
  /** 'release': a version published in the console; 'build': another web build deployed (no reasons). */
  kind: 'release' | 'build';
  /** The offered version (a build: its build id). */
  version: string;
  reasonsZh: string[];
  reasonsEn: string[];
  /** A forced update: no "Later". */
  force: boolean;
  /** The web bundle of a shell release, or null. */
  bundle: AppBundle | null;
  /** Store or APK page of a binary release ('' = none). */
  downloadUrl: string;
}

/** major.minor.patch as one comparable number (each part below 10^4, as the server's). */
export function versionValue(v: string): number {
  const n = normalizeVersion(v);
  if (!n) return -1;
  const [a, b, c] = n.split('.').map((p) => Number.parseInt(p, 10)) as [number, number, number];
  return a * 1e8 + b * 1e4 + c;
}

/** The deployed web build (/version.json), or null when it cannot be read. */
async function deployedBuild(): Promise<{ buildId: string; version: string } | null> {
  try {
    const res = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
    if (!res.ok) return null;
    const j = (await res.json()) as { buildId?: string; version?: string };
    return { buildId: j.buildId ?? '', version: j.version ?? '' };
  } catch {
    return null;
  }
}

/**
 * Asks whether there is something newer to install (see the module comment); null when the app is up to date or
 * the check could not be made (no network: nothing to offer).
 */
export async function checkForUpdate(): Promise<UpdateOffer | null> {
  const platform = bridgePlatform();
  const current = await runningVersion();
  try {
    const r = await apiGet<LatestVersion>(APP_VERSION_PATHS.latest, { platform, current }, { silent: true });
    if (r.updateAvailable && r.latest) {
      const l = r.latest;
      return {
        kind: 'release',
        version: l.version,
        reasonsZh: l.reasonsZh,
        reasonsEn: l.reasonsEn,
        force: l.force,
        bundle: l.bundle,
        downloadUrl: l.downloadUrl,
      };
    }
  } catch {
    // no answer: fall through to the build check on the web
  }
  if (platform !== 'web' || import.meta.env.DEV) return null;
  const d = await deployedBuild();
  if (d && d.buildId && d.buildId !== RUNNING_BUILD_ID)
    return { kind: 'build', version: d.buildId, reasonsZh: [], reasonsEn: [], force: false, bundle: null, downloadUrl: '' };
  return null;
}

/** Tells a waiting service worker (a newer build's) to take over, so the reload is served by it. */
async function activateWaitingWorker(): Promise<void> {
  const reg = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (!reg) return;
  await reg.update().catch(() => undefined);
  reg.waiting?.postMessage({ type: 'SKIP_WAITING' });
}

/** Dependencies of applyUpdate (the real ones by default; tests pass their own timer and restart). */
export interface ApplyDeps {
  restart?: () => void;
  setTimer?: (fn: () => void, ms: number) => void;
}

/**
 * Runs the update of `offer`, reporting the states to `onState` (1 updating, then 3 done or 4 failed); after 3 the
 * app restarts `RESTART_DELAY_MS` later. A binary release opens its download page and reports nothing more.
 */
export async function applyUpdate(offer: UpdateOffer, onState: (s: UpdateState) => void, deps: ApplyDeps = {}): Promise<void> {
  const setTimer = deps.setTimer ?? ((fn, ms) => void setTimeout(fn, ms));
  onState(1);
  if (isNativeShell()) {
    const b = await loadCapacitorBridge();
    if (!offer.bundle) {
      if (offer.downloadUrl) window.open(offer.downloadUrl, '_system');
      else onState(4);
      return;
    }
    const ok = await b.installBundle(serverUrl(offer.bundle.url), offer.version, offer.bundle.sha256);
    if (!ok) return onState(4);
    onState(3);
    setTimer(deps.restart ?? (() => void b.restart()), RESTART_DELAY_MS);
    return;
  }
  const d = await deployedBuild();
  const deployed =
    d !== null && (offer.kind === 'build' ? d.buildId !== '' && d.buildId !== RUNNING_BUILD_ID : versionValue(d.version) >= versionValue(offer.version));
  if (!deployed) return onState(4);
  await activateWaitingWorker();
  onState(3);
  setTimer(deps.restart ?? (() => window.location.reload()), RESTART_DELAY_MS);
}

/** sessionStorage key of the version the user put off ("Later" or "Close"): not offered again by itself in this session. */
export const DISMISSED_UPDATE_KEY = 'updateDismissed';

function readDismissed(): string | null {
  try {
    return window.sessionStorage.getItem(DISMISSED_UPDATE_KEY);
  } catch {
    return null;
  }
}

function writeDismissed(version: string | null): void {
  try {
    if (version === null) window.sessionStorage.removeItem(DISMISSED_UPDATE_KEY);
    else window.sessionStorage.setItem(DISMISSED_UPDATE_KEY, version);
  } catch {
    /* storage unavailable (private mode): the dismissal lasts until the page reloads */
  }
}

/** The offer the new-version dialog shows (set by the automatic check or by "Version" in the settings), and the one the user put off. */
interface UpdateOfferState {
  offer: UpdateOffer | null;
  /** The version the user put off, kept for the browser session (a reload does not ask again). */
  dismissed: string | null;
  /**
   * Sets what the check found. The automatic check (`manual` false: start-up, back to the foreground) never
   * re-offers the version the user put off in this session; "Version" in the settings (`manual` true) shows it again.
   */
  setOffer: (offer: UpdateOffer | null, manual?: boolean) => void;
  dismiss: () => void;
}

/** The store of the update offer (shared by the shell's dialog and the settings' manual check). */
export const useUpdateOffer = create<UpdateOfferState>((set, get) => ({
  offer: null,
  dismissed: readDismissed(),
  setOffer: (offer, manual = false) => {
    const dismissed = manual && offer && offer.version === get().dismissed ? null : get().dismissed;
    if (dismissed !== get().dismissed) writeDismissed(dismissed);
    set({ offer, dismissed });
  },
  dismiss: () => {
    const dismissed = get().offer?.version ?? null;
    writeDismissed(dismissed);
    set({ dismissed });
  },
}));
