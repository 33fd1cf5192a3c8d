// Proves the home pull to refresh (spec section 9: offset 46, end delay 1 s): a pull shorter than
// the threshold refreshes nothing; a pull past it shows "release", then "refreshing" while onRefresh
// runs, then "done" for the end delay, after which the head closes. Also the damping rule and the
// banner's next-slide rule.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { PullRefresh, pullHeight } from './PullRefresh';
import { nextSlide } from './BannerSwiper';

const texts = { pulling: 'pull', canRelease: 'release', refreshing: 'loading', complete: 'done' };

function pull(el: HTMLElement, dy: number) {
  fireEvent.touchStart(el, { touches: [{ clientY: 100 }] });
  fireEvent.touchMove(el, { touches: [{ clientY: 100 + dy }] });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PullRefresh', () => {
  it('does not refresh on a short pull', () => {
    const onRefresh = vi.fn(() => Promise.resolve());
    render(
      <PullRefresh onRefresh={onRefresh} threshold={46} headHeight={46} completeDelay={1000} texts={texts}>
        <p>body</p>
      </PullRefresh>,
    );
    const body = screen.getByText('body');
    pull(body, 60); // head 30 px < 46
    expect(screen.getByText('pull')).toBeInTheDocument();
    fireEvent.touchEnd(body);
    expect(onRefresh).not.toHaveBeenCalled();
    expect(screen.queryByText('pull')).toBeNull();
  });

  it('refreshes past the threshold and shows done for the end delay', async () => {
    vi.useFakeTimers();
    let finish: () => void = () => undefined;
    const onRefresh = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const { container } = render(
      <PullRefresh onRefresh={onRefresh} threshold={46} headHeight={46} completeDelay={1000} texts={texts}>
        <p>body</p>
      </PullRefresh>,
    );
    const body = screen.getByText('body');
    pull(body, 120); // head 60 px >= 46
    expect(screen.getByText('release')).toBeInTheDocument();
    fireEvent.touchEnd(body);
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(screen.getByText('loading')).toBeInTheDocument();
    const head = container.querySelector('.home-ptr-head') as HTMLElement;
    expect(head.style.height).toBe('46px');
    await act(async () => {
      finish();
      await Promise.resolve();
    });
    expect(screen.getByText('done')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999);
    });
    expect(screen.getByText('done')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(screen.queryByText('done')).toBeNull();
    expect(head.style.height).toBe('0px');
  });
});

describe('pullHeight / nextSlide', () => {
  it('halves the finger travel and never goes negative', () => {
    expect(pullHeight(92)).toBe(46);
    expect(pullHeight(-10)).toBe(0);
  });
  it('wraps to the first banner after the last', () => {
    expect(nextSlide(0, 3)).toBe(1);
    expect(nextSlide(2, 3)).toBe(0);
    expect(nextSlide(0, 0)).toBe(0);
  });
});
