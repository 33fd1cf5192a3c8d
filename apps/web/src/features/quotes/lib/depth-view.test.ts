// Proves the order-book view: cumulative quantities add exactly and the bars are percentages of the
// larger side's total, truncated to 2 decimals; an empty book gives empty sides.
import { describe, expect, it } from 'vitest';
import { depthView } from './depth-view';

describe('depthView', () => {
  it('cumulates and scales to the larger side', () => {
    const v = depthView(
      [
        ['10', '0.1'],
        ['9', '0.2'],
      ],
      [
        ['11', '0.9'],
        ['12', '0.3'],
      ],
      5,
    );
    expect(v.bids).toEqual([
      { price: '10', qty: '0.1', cum: '0.1', barPct: '8.33' },
      { price: '9', qty: '0.2', cum: '0.3', barPct: '25.00' },
    ]);
    expect(v.asks.map((r) => [r.cum, r.barPct])).toEqual([
      ['0.9', '75.00'],
      ['1.2', '100.00'],
    ]);
  });
  it('limits rows and handles an empty book', () => {
    expect(
      depthView(
        [
          ['3', '1'],
          ['2', '1'],
          ['1', '1'],
        ],
        [],
        2,
      ).bids.map((r) => r.price),
    ).toEqual(['3', '2']);
    expect(depthView([], [], 5)).toEqual({ bids: [], asks: [] });
  });
});
