/**
 * Whether a horizontally scrolling strip has more content past its left and right edges, for the
 * fades that tell the user a tab strip scrolls (at 320 px the five account tabs do not fit). Also
 * scrolls the element matching `activeSelector` into view when `activeKey` changes, so the chosen
 * tab is never left half outside the strip.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** Scroll state of a strip: more content to the left (`start`) or to the right (`end`). */
export interface ScrollEdges {
  start: boolean;
  end: boolean;
}

/**
 * Edges of `el` with 1 px of tolerance for sub-pixel layouts: more to the left when scrolled past 1 px,
 * more to the right when the scrolled-off width exceeds 1 px.
 */
export function edgesOf(el: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>): ScrollEdges {
  return { start: el.scrollLeft > 1, end: el.scrollWidth - el.clientWidth - el.scrollLeft > 1 };
}

/**
 * Returns [ref for the wrapper, edges]; the strip is the wrapper's first `[role=tablist]` (or the
 * wrapper itself). Listens to scroll and resize.
 */
export function useScrollEdges(activeKey: string, activeSelector = '[aria-selected="true"]') {
  const wrap = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false });
  const stripOf = useCallback(() => {
    const w = wrap.current;
    return w ? (w.querySelector<HTMLElement>('[role="tablist"]') ?? w) : null;
  }, []);

  useEffect(() => {
    const strip = stripOf();
    if (!strip) return;
    const update = () => {
      const next = edgesOf(strip);
      setEdges((e) => (e.start === next.start && e.end === next.end ? e : next));
    };
    update();
    strip.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    // The strip's own box, and each tab: a label that grows (language switch) changes scrollWidth only.
    ro?.observe(strip);
    for (const child of Array.from(strip.children)) ro?.observe(child);
    return () => {
      strip.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, [stripOf]);

  useEffect(() => {
    const active = stripOf()?.querySelector<HTMLElement>(activeSelector);
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeKey, activeSelector, stripOf]);

  return [wrap, edges] as const;
}
