/**
 * Pull to refresh for the home page (spec section 9: offset 46 px, end delay 1 s). At the top of the
 * page a downward finger drag opens a head above the content (half the finger's travel) showing
 * "pull down" / "release"; released past `threshold` px it stays `headHeight` px tall, shows
 * "refreshing" while `onRefresh` runs, then "done" for `completeDelay` ms, and closes. Touch events
 * only (a mouse never pulls), read from the window's scroll position. Our own small component rather
 * than antd PullToRefresh, which brought react-spring and use-gesture into the home page's first load.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

/** Texts of the head per state. */
export interface PullRefreshTexts {
  pulling: string;
  canRelease: string;
  refreshing: string;
  complete: string;
}

/** Props of PullRefresh; distances in px, delay in ms. */
export interface PullRefreshProps {
  onRefresh: () => Promise<unknown>;
  threshold: number;
  headHeight: number;
  completeDelay: number;
  texts: PullRefreshTexts;
  children: ReactNode;
}

type Status = 'idle' | 'pulling' | 'canRelease' | 'refreshing' | 'complete';

/** Head height for a finger travel of `dy` px: half the travel, never negative (damped pull). */
export function pullHeight(dy: number): number {
  return dy > 0 ? Math.round(dy / 2) : 0;
}

/** Wraps `children` with a pull-to-refresh head. */
export function PullRefresh({ onRefresh, threshold, headHeight, completeDelay, texts, children }: PullRefreshProps) {
  const root = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [height, setHeight] = useState(0);
  const busy = status === 'refreshing' || status === 'complete';
  const state = useRef({ startY: -1, height: 0, busy: false });
  state.current.busy = busy;
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const s = state.current;
    const onStart = (e: TouchEvent) => {
      s.startY = !s.busy && window.scrollY <= 0 && e.touches.length === 1 ? e.touches[0]!.clientY : -1;
    };
    const onMove = (e: TouchEvent) => {
      if (s.startY < 0) return;
      const h = pullHeight(e.touches[0]!.clientY - s.startY);
      if (h <= 0) {
        if (s.height > 0) {
          s.height = 0;
          setHeight(0);
          setStatus('idle');
        }
        return;
      }
      if (e.cancelable) e.preventDefault();
      s.height = h;
      setHeight(h);
      setStatus(h >= threshold ? 'canRelease' : 'pulling');
    };
    const onEnd = () => {
      if (s.startY < 0) return;
      s.startY = -1;
      const pulled = s.height;
      s.height = 0;
      if (pulled < threshold) {
        setHeight(0);
        setStatus('idle');
        return;
      }
      setHeight(headHeight);
      setStatus('refreshing');
      void refresh
        .current()
        .catch(() => undefined)
        .then(() => {
          setStatus('complete');
          return new Promise((r) => window.setTimeout(r, completeDelay));
        })
        .then(() => {
          setHeight(0);
          setStatus('idle');
        });
    };
    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [threshold, headHeight, completeDelay]);

  const text =
    status === 'idle'
      ? ''
      : status === 'pulling'
        ? texts.pulling
        : status === 'canRelease'
          ? texts.canRelease
          : status === 'refreshing'
            ? texts.refreshing
            : texts.complete;
  const dragging = status === 'pulling' || status === 'canRelease';
  return (
    <div ref={root}>
      <div className={`home-ptr-head${dragging ? '' : ' home-ptr-anim'}`} style={{ height }} aria-live="polite">
        {text && <span>{text}</span>}
      </div>
      {children}
    </div>
  );
}
