/**
 * Proves the update flow of spec section 4 in a browser (update.ts, web path) against a stubbed fetch: the check
 * asks app/version/latest with platform=web and the running version and offers the published version with its
 * reasons in both languages (null when up to date or when the server does not answer); "Update now" reports 1
 * updating, then 3 done and restarts exactly 2 s later when the deployed build (/version.json) is at least the
 * offered version, or 4 failed (no restart) when the deployment is older or unreadable. Versions compare part by
 * part (1.10.0 > 1.9.9).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APP_VERSION, normalizeVersion } from './bridge';
import {
  DISMISSED_UPDATE_KEY,
  RESTART_DELAY_MS,
  applyUpdate,
  checkForUpdate,
  useUpdateOffer,
  versionValue,
  type UpdateOffer,
  type UpdateState,
} from './update';

/** A fetch stub: the version API's answer and the deployed /version.json (null = 404). */
function stubServer(latest: unknown, deployed: { buildId: string; version: string } | null) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      urls.push(input);
      if (input.startsWith('/api/app/version/latest'))
        return new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result: latest }));
      if (input.startsWith('/version.json')) return deployed ? new Response(JSON.stringify(deployed)) : new Response('', { status: 404 });
      return new Response('', { status: 404 });
    }),
  );
  return urls;
}

const release020 = {
  id: '4',
  platform: 'web',
  version: '0.2.0',
  reasonsZh: ['新增邀请海报', '修复行情刷新'],
  reasonsEn: ['New invitation poster', 'Fixed the quotes refresh'],
  force: false,
  bundle: null,
  downloadUrl: '',
  publishedAt: 1,
  withdrawnAt: 0,
};
const offer020: UpdateOffer = {
  kind: 'release',
  version: '0.2.0',
  reasonsZh: release020.reasonsZh,
  reasonsEn: release020.reasonsEn,
  force: false,
  bundle: null,
  downloadUrl: '',
};

afterEach(() => vi.unstubAllGlobals());

describe('versions', () => {
  it('normalises and compares part by part', () => {
    expect(normalizeVersion('1.0')).toBe('1.0.0');
    expect(normalizeVersion('2')).toBe('2.0.0');
    expect(normalizeVersion('1.02.0')).toBeNull();
    expect(normalizeVersion('1.0.0.1')).toBeNull();
    expect(versionValue('1.10.0')).toBeGreaterThan(versionValue('1.9.9'));
    expect(versionValue('0.2.0')).toBeGreaterThan(versionValue(APP_VERSION));
    expect(versionValue('nope')).toBe(-1);
  });
});

describe('checkForUpdate on the web', () => {
  it('offers a published newer version with its reasons', async () => {
    const urls = stubServer({ latest: release020, updateAvailable: true }, null);
    expect(await checkForUpdate()).toEqual(offer020);
    expect(urls[0]).toBe(`/api/app/version/latest?platform=web&current=${APP_VERSION}`);
  });

  it('offers nothing when up to date or when the server does not answer', async () => {
    stubServer({ latest: release020, updateAvailable: false }, null);
    expect(await checkForUpdate()).toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await checkForUpdate()).toBeNull();
  });
});

describe('applyUpdate on the web', () => {
  async function run(deployed: { buildId: string; version: string } | null) {
    stubServer(null, deployed);
    const states: UpdateState[] = [];
    const timers: number[] = [];
    const restart = vi.fn();
    await applyUpdate(offer020, (s) => states.push(s), { restart, setTimer: (fn, ms) => (timers.push(ms), fn()) });
    return { states, timers, restart };
  }

  it('updates: 1 updating, 3 done, restart after 2 s, when the new build is deployed', async () => {
    for (const version of ['0.2.0', '0.3.1']) {
      const r = await run({ buildId: 'b2', version });
      expect(r.states).toEqual([1, 3]);
      expect(r.timers).toEqual([RESTART_DELAY_MS]);
      expect(RESTART_DELAY_MS).toBe(2000);
      expect(r.restart).toHaveBeenCalledOnce();
    }
  });

  it('fails: 1 updating, 4 failed, no restart, when the deployment is older or unreadable', async () => {
    for (const deployed of [{ buildId: 'b1', version: '0.1.0' }, null]) {
      const r = await run(deployed);
      expect(r.states).toEqual([1, 4]);
      expect(r.restart).not.toHaveBeenCalled();
    }
  });
});

describe('the offer the user put off', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    useUpdateOffer.setState({ offer: null, dismissed: null });
  });

  it('is not offered again by the automatic check in this session (kept in sessionStorage); "Version" in the settings shows it again', () => {
    const store = useUpdateOffer.getState;
    store().setOffer(offer020);
    expect(store().dismissed).toBeNull();
    store().dismiss();
    expect(store().dismissed).toBe('0.2.0');
    expect(window.sessionStorage.getItem(DISMISSED_UPDATE_KEY)).toBe('0.2.0');
    // A reload's (or a return to the foreground's) automatic check: still put off.
    store().setOffer(offer020);
    expect(store().offer?.version).toBe('0.2.0');
    expect(store().dismissed).toBe('0.2.0');
    // A newer version is offered even so.
    store().setOffer({ ...offer020, version: '0.3.0' });
    expect(store().dismissed).toBe('0.2.0');
    // The manual check: the put-off version shows again, and the session no longer remembers it.
    store().setOffer(offer020, true);
    expect(store().dismissed).toBeNull();
    expect(window.sessionStorage.getItem(DISMISSED_UPDATE_KEY)).toBeNull();
  });
});
