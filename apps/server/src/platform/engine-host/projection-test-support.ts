/**
 * Test support for the domains' projections: a fresh instance of a projection feeding the projector's buffer
 * (projector.ts `RowBuffer`), as the projector runs it, without a store.
 */
import type { EngineEvent } from '@exchange/core';
import type { ProjectedTable, TableRows } from '../db/projection-types';
import { tableRows } from '../db/projection-types';
import type { DomainProjection } from './projection';
import { RowBuffer } from './projector';

/** A buffer fed by a fresh instance of `projection`, read as the rows of one of its tables. */
export interface FedProjection<Row extends object> {
  /** Projects command `seq`'s events; answers how many rows they added. */
  push(seq: number, events: readonly EngineEvent[]): number;
  /** The buffered rows of the table, emptying the buffer (every table's). */
  take(): Row[];
  /** Puts rows of the table back as a failed write does (under anything newer buffered meanwhile). */
  restore(rows: Row[]): void;
  /** Every table's buffered rows, emptying the buffer. */
  takeAll(): TableRows[];
}

/** Feeds `projection` into a fresh projector buffer; `table` is the one `take` and `restore` read and write. */
export function feedProjection<Row extends object>(projection: DomainProjection, table: ProjectedTable<Row>): FedProjection<Row> {
  const b = new RowBuffer(projection.tables);
  const project = projection.start();
  return {
    push(seq, events) {
      const before = b.count;
      project(seq, events, b);
      return b.count - before;
    },
    take: () => tableRows(b.take(), table),
    restore: (rows) => b.restore([{ rule: table.rule, rows: rows as Record<string, unknown>[] }]),
    takeAll: () => b.take(),
  };
}
