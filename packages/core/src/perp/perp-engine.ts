/**
 * The perpetual contracts' state machine (issue 12): markets, books, orders, positions, margin, mark price, funding,
 * take profit / stop loss and liquidation. The engine (engine.ts) owns one and routes the perp* commands here.
 * Work in progress: the reads answer from the state, the commands are being implemented.
 */
import type { Ledger } from '../ledger/ledger';
import type { CommandResult, DepthLevel, EngineEvent } from '../types';
import {
  DEFAULT_LEVERAGE,
  type PerpAccountView,
  type PerpCommand,
  type PerpMarkState,
  type PerpMarketConfig,
  type PerpOrderView,
  type PerpReads,
  type PerpSettings,
  type PositionView,
} from './types';

/** What the perpetual state needs from the engine while it works on a command. */
export interface PerpHost {
  readonly ledger: Ledger;
  readonly events: EngineEvent[];
  allocOrderSeq(): number;
  allocTradeId(): string;
  isFrozen(userId: string): boolean;
  hasAsset(code: string): number | undefined;
}

/** The perpetual markets' state (see the file comment). */
export class PerpState implements PerpReads {
  execute(_cmd: PerpCommand, _host: PerpHost): CommandResult {
    return { code: 'invalid_order', events: [] };
  }
  perpMarket(_symbol: string): PerpMarketConfig | undefined {
    return undefined;
  }
  perpMarkets(): PerpMarketConfig[] {
    return [];
  }
  perpMarkState(_symbol: string): PerpMarkState | undefined {
    return undefined;
  }
  perpOrder(_orderId: string): PerpOrderView | undefined {
    return undefined;
  }
  perpOpenOrders(_userId: string, _symbol?: string): PerpOrderView[] {
    return [];
  }
  perpDepth(_symbol: string, _levels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    return { bids: [], asks: [] };
  }
  position(_userId: string, _symbol: string): PositionView | undefined {
    return undefined;
  }
  positions(_userId: string): PositionView[] {
    return [];
  }
  perpSettings(_userId: string, _symbol: string): PerpSettings {
    return { leverage: DEFAULT_LEVERAGE, marginMode: 'CROSS' };
  }
  perpAccount(_userId: string): PerpAccountView {
    return { walletBalance: 0n, crossWalletBalance: 0n, crossUnrealizedPnl: 0n, crossMarginBalance: 0n, crossMaintMargin: 0n, availableBalance: 0n, riskLevelPpm: 0 };
  }
  positionCount(_symbol: string): number {
    return 0;
  }
  rows(): unknown {
    return null;
  }
}
