/**
 * Orders by sequence number, for the engine's retained orders (open ones and the most recently
 * ended ones). Sequence numbers are dense and increasing (1, 2, 3 ...), so instead of a hash map
 * the index is a list of fixed-size pages (plain arrays of PAGE_SIZE slots): a lookup is two array
 * reads, an insert or delete writes one slot, and a page whose orders were all forgotten is freed.
 * No rehashing and no per-entry allocation on the command path.
 */
import type { Order } from './order';

const PAGE_BITS = 12;
const PAGE_SIZE = 1 << PAGE_BITS; // 4096 orders per page
const PAGE_MASK = PAGE_SIZE - 1;

/** Page number of a sequence number (exact for every safe integer; `>>>` would wrap above 2^32). */
function pageOf(seq: number): number {
  return seq < 4294967296 ? seq >>> PAGE_BITS : Math.floor(seq / PAGE_SIZE);
}

class Page {
  readonly slots: (Order | undefined)[] = new Array<Order | undefined>(PAGE_SIZE).fill(undefined);
  live = 0;
}

/** Retained orders by sequence number (see the file comment). Sequence numbers are positive safe integers. */
export class OrderIndex {
  /** page number -> page (undefined when freed or never used) */
  private readonly pages: (Page | undefined)[] = [];
  private count = 0;

  /** The order with this sequence number, or undefined (never used, forgotten, or -1 for a malformed id). */
  get(seq: number): Order | undefined {
    if (seq < 0) return undefined;
    return this.pages[pageOf(seq)]?.slots[seq & PAGE_MASK]; // & keeps the low bits of any safe integer
  }

  /** Add an order under its sequence number (the slot must be empty). */
  set(o: Order): void {
    const seq = o.seq;
    const pn = pageOf(seq);
    const pages = this.pages;
    while (pages.length <= pn) pages.push(undefined);
    let p = pages[pn];
    if (p === undefined) {
      p = new Page();
      pages[pn] = p;
    }
    const i = seq & PAGE_MASK;
    if (p.slots[i] === undefined) {
      p.live++;
      this.count++;
    }
    p.slots[i] = o;
  }

  /** Forget the order with this sequence number (no-op if absent); frees its page when it was the last. */
  delete(seq: number): void {
    const pn = pageOf(seq);
    const p = this.pages[pn];
    if (p === undefined) return;
    const i = seq & PAGE_MASK;
    if (p.slots[i] === undefined) return;
    p.slots[i] = undefined;
    this.count--;
    if (--p.live === 0) this.pages[pn] = undefined;
  }

  /** Number of orders held. */
  size(): number {
    return this.count;
  }

  /** Every order in sequence (id) order. */
  *values(): IterableIterator<Order> {
    for (const p of this.pages) {
      if (p === undefined) continue;
      for (const o of p.slots) if (o !== undefined) yield o;
    }
  }
}
