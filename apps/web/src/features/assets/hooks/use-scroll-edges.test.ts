// Proves the scroll-edge rule of the account tabs: a strip that fits has no fade; one that overflows
// has more to the right at the start, on both sides in the middle, and to the left at the end (with
// 1 px of tolerance for sub-pixel widths).
import { describe, expect, it } from 'vitest';
import { edgesOf } from './use-scroll-edges';

describe('edgesOf', () => {
  it('tells which sides have more', () => {
    expect(edgesOf({ scrollLeft: 0, scrollWidth: 300, clientWidth: 300 })).toEqual({ start: false, end: false });
    expect(edgesOf({ scrollLeft: 0, scrollWidth: 360, clientWidth: 320 })).toEqual({ start: false, end: true });
    expect(edgesOf({ scrollLeft: 20, scrollWidth: 360, clientWidth: 320 })).toEqual({ start: true, end: true });
    expect(edgesOf({ scrollLeft: 40, scrollWidth: 360, clientWidth: 320 })).toEqual({ start: true, end: false });
    expect(edgesOf({ scrollLeft: 39.5, scrollWidth: 360, clientWidth: 320 })).toEqual({ start: true, end: false });
    expect(edgesOf({ scrollLeft: 0, scrollWidth: 320.6, clientWidth: 320 })).toEqual({ start: false, end: false });
  });
});
