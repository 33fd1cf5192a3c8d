import { describe, expect, it } from 'vitest';
import { BUY, CANCEL, FlowBuilder, MARKET, PLACE, SELL } from './flow';

describe('FlowBuilder simulation', () => {
  it('records places, fills at the maker price in FIFO order and ends with the right book', () => {
    const fb = new FlowBuilder('t', 'test', 2, 5, 10);
    const a = fb.place(SELL, 101n, 5n, 0);
    const b = fb.place(SELL, 101n, 3n, 1);
    fb.place(BUY, 99n, 4n, 2);
    fb.market(BUY, 6n); // takes all of a (5) and 1 of b
    expect(fb.isLive(a)).toBe(false);
    expect(fb.isLive(b)).toBe(true);
    expect(fb.levelTotal(SELL, 101n)).toBe(2n);
    const flow = fb.build();
    expect(flow.length).toBe(4);
    expect([...flow.kind]).toEqual([PLACE, PLACE, PLACE, MARKET]);
    expect(flow.counts.simFills).toBe(2);
    expect(flow.finalBook).toEqual({ bids: [[99n, 4n]], asks: [[101n, 2n]] });
  });

  it('cancels only live orders', () => {
    const fb = new FlowBuilder('t', 'test', 2, 5, 10);
    const a = fb.place(BUY, 100n, 2n, 0);
    expect(fb.cancel(a)).toBe(true);
    expect(fb.cancel(a)).toBe(false);
    const flow = fb.build();
    expect([...flow.kind]).toEqual([PLACE, CANCEL]);
    expect(flow.finalBook).toEqual({ bids: [], asks: [] });
  });

  it('never lets a crossing order meet its own user', () => {
    const fb = new FlowBuilder('t', 'test', 2, 5, 3);
    fb.place(SELL, 100n, 1n, 0);
    fb.place(SELL, 100n, 1n, 1);
    const c = fb.place(BUY, 100n, 2n, 0); // user 0 would meet itself: moved to user 2
    expect(fb.ownerOf(c)).toBe(2);
    expect(fb.build().finalBook).toEqual({ bids: [], asks: [] });
  });
});
