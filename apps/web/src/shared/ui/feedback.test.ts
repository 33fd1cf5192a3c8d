// Proves that a timed toast stays on screen for its whole time counted from when it is rendered (not from the
// call, which on a busy main thread may come long before the toast mounts), that an older toast's timer never closes
// a newer toast, and, with antd-mobile's real Toast in the DOM, that the toast appears and then goes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import Toast from 'antd-mobile/es/components/toast';
import { loadFeedback, showTimedToast } from './feedback';

describe('showTimedToast with a controlled render and clock', () => {
  let frames: FrameRequestCallback[] = [];
  let rendered: boolean[] = [];
  let shown: string[] = [];
  let clears = 0;

  /** Runs the frames queued so far (as the browser does before a paint). */
  const paint = () => {
    const due = frames;
    frames = [];
    for (const f of due) f(performance.now());
  };

  beforeEach(async () => {
    await loadFeedback();
    frames = [];
    rendered = [];
    shown = [];
    clears = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
    vi.spyOn(Toast, 'show').mockImplementation((p) => {
      const i = shown.push(typeof p === 'string' ? p : String(p.content)) - 1;
      rendered[i] = false;
      expect(typeof p === 'string' ? undefined : p.duration).toBe(0);
      return { close: () => {}, isRendered: () => rendered[i] } as ReturnType<typeof Toast.show>;
    });
    vi.spyOn(Toast, 'clear').mockImplementation(() => {
      clears += 1;
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('starts the time only once the toast is rendered, then closes it after exactly that time', () => {
    showTimedToast({ content: 'Login expired' }, 1000);
    expect(shown).toEqual(['Login expired']);
    // A starved main thread: five frames and 5 s pass before the toast mounts. Nothing may close it.
    for (let i = 0; i < 5; i++) {
      paint();
      vi.advanceTimersByTime(1000);
    }
    expect(clears).toBe(0);
    rendered[0] = true;
    paint();
    vi.advanceTimersByTime(999);
    expect(clears).toBe(0);
    vi.advanceTimersByTime(1);
    expect(clears).toBe(1);
    vi.advanceTimersByTime(10_000);
    paint();
    expect(clears).toBe(1);
  });

  it('an older toast whose time is up does not close the newer toast that replaced it', () => {
    showTimedToast({ content: 'first' }, 1000);
    rendered[0] = true;
    paint();
    vi.advanceTimersByTime(600);
    showTimedToast({ content: 'second' }, 1000);
    rendered[1] = true;
    paint();
    vi.advanceTimersByTime(400); // the first toast's 1000 ms are over
    expect(clears).toBe(0);
    vi.advanceTimersByTime(599);
    expect(clears).toBe(0);
    vi.advanceTimersByTime(1); // the second toast's 1000 ms
    expect(clears).toBe(1);
  });

  it('a toast shown before its frame still counts its time from the frame in which it is rendered', () => {
    showTimedToast({ content: 'saved' }, 2000);
    rendered[0] = true;
    vi.advanceTimersByTime(5000); // no frame yet (a hidden tab): the time has not started
    expect(clears).toBe(0);
    paint();
    vi.advanceTimersByTime(1999);
    expect(clears).toBe(0);
    vi.advanceTimersByTime(1);
    expect(clears).toBe(1);
  });
});

describe('showTimedToast with the real toast', () => {
  afterEach(() => {
    Toast.clear();
  });

  it('shows the text, keeps it at least its time, then removes it', async () => {
    await loadFeedback();
    const start = performance.now();
    showTimedToast({ content: 'Image saved' }, 300);
    expect(await screen.findByText('Image saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Image saved')).toBeNull(), { timeout: 3000 });
    expect(performance.now() - start).toBeGreaterThanOrEqual(300);
  });
});
