/**
 * The index components service: the board the index job writes each tick's components on, and the answer of
 * getIndexComponents and /fapi/v1/constituents (index-components.ts): this process's last tick, else with the live
 * index the last recorded tick (index_price_ticks, written by the process that computes it), else none yet.
 */
import type { IndexComponents } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { createIndexComponentsBoard, liveComponents, type IndexComponentsBoard } from './index-components';
import { latestIndexTick } from './index-price.repository';

/** The board and its reader. */
export interface IndexComponentsService extends IndexComponentsBoard {
  /** The last tick's components of the perpetual `symbol` (the caller checks that it exists). */
  components(symbol: string): Promise<IndexComponents>;
}

/** Builds the service; `mode` is the deployment's INDEX_SOURCE. */
export function createIndexComponentsService(deps: { db: Db; mode: 'live' | 'replay' }): IndexComponentsService {
  const board = createIndexComponentsBoard();
  return {
    ...board,
    async components(symbol) {
      const here = board.get(symbol);
      if (here) return here;
      if (deps.mode === 'live') {
        const row = await latestIndexTick(deps.db, symbol);
        if (row)
          return liveComponents(symbol, row.ts, { price: row.price, stale: row.stale, reason: row.reason as IndexComponents['reason'], inputs: row.inputs });
      }
      return { symbol, mode: deps.mode, time: 0, price: '', stale: false, reason: null, components: [] };
    },
  };
}
