/**
 * Child process of the journal-replay benchmark: writes a journal of exactly N commands through the
 * real engine host (group commit, fsync) into DATA_DIR, snapshots disabled. The commands are the
 * real flows of src/flow (Binance BTCUSDT and Bitfinex tBTCUSD rebuilt), replayed on fresh markets
 * pass after pass until N is reached, after funding 1000 users by deposits. Waits until the projector
 * has written everything, closes the database and exits WITHOUT closing the host (no final snapshot),
 * as a crash after the last acknowledgement would. Usage: generate.ts <dataDir> <N>
 */
import { openDb } from '../../../apps/server/src/platform/db/client';
import { createEngineHost } from '../../../apps/server/src/platform/engine-host/engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../../../apps/server/src/main/domains';
import { dataFile } from '../data/paths';
import { buildBinanceFlow } from '../flow/flow-binance';
import { buildBitfinexFlow } from '../flow/flow-bitfinex';
import type { Flow } from '../flow/flow';
import { flowCommand, type CommandInput } from '../flow/to-commands';
import { emitResult, replayConfig, silentLog } from './common';

const [dataDir, nArg] = process.argv.slice(2);
if (dataDir === undefined || nArg === undefined) throw new Error('usage: generate.ts <dataDir> <N>');
const N = Number.parseInt(nArg, 10);
const USERS = 1000;
const WINDOW = 4096;

async function main(): Promise<void> {
  const b1 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240808.jsonl.gz');
  const b2 = dataFile('binance-ws-capture-hftbacktest/spot_btcusdt_20240809.jsonl.gz');
  const bf = dataFile('bitfinex-btcusd-raw-book-l3-nautilus/bitfinex_tBTCUSD_R0_book_events.csv.gz');
  const flows: { flow: Flow; quote: string; tag: string }[] = [];
  if (b1 !== undefined && b2 !== undefined) flows.push({ flow: buildBinanceFlow('binance', [b1, b2]).flow, quote: 'USDT', tag: 'a' });
  if (bf !== undefined) flows.push({ flow: buildBitfinexFlow('bitfinex', bf).flow, quote: 'USD', tag: 'b' });
  if (flows.length === 0) throw new Error('no data');

  const config = replayConfig(dataDir as string);
  const db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: config.dataDir });
  const host = await createEngineHost({ config, db: db.db, log: silentLog, projections: PROJECTIONS, machines: MACHINES });
  let count = 0;
  let rejected = 0;
  let pending: Promise<unknown>[] = [];
  const submit = async (cmd: CommandInput, mustOk: boolean): Promise<void> => {
    count++;
    pending.push(
      host.submit(cmd).then((r) => {
        if (r.code !== 'ok') {
          if (mustOk) throw new Error(`${cmd.type}: ${r.code}`);
          rejected++;
        }
      }),
    );
    if (pending.length >= WINDOW) {
      await Promise.all(pending);
      pending = [];
    }
  };

  const t0 = performance.now();
  await submit({ type: 'addAsset', asset: { code: 'BTC', scale: 8 } }, true);
  await submit({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } }, true);
  await submit({ type: 'addAsset', asset: { code: 'USD', scale: 16 } }, true);
  for (let u = 0; u < USERS; u++) {
    for (const [asset, scale] of [
      ['BTC', 8],
      ['USDT', 8],
      ['USD', 16],
    ] as const) {
      await submit({ type: 'deposit', userId: `bench-${u}`, asset, account: 'SPOT', amount: 10n ** BigInt(scale + 12), from: '@faucet' }, true);
    }
  }
  for (let pass = 0; count < N; pass++) {
    for (const { flow, quote, tag } of flows) {
      if (count >= N) break;
      const symbol = `BTC/${quote}-${pass}`;
      await submit(
        {
          type: 'addMarket',
          market: {
            symbol,
            base: 'BTC',
            quote,
            priceDecimals: flow.priceDecimals,
            qtyDecimals: flow.qtyDecimals,
            tickSize: 1n,
            stepSize: 1n,
            minQty: 1n,
            minNotional: 0n,
            makerFeePpm: 1000,
            takerFeePpm: 1000,
            status: 'TRADING',
          },
        },
        true,
      );
      for (let i = 0; i < flow.length && count < N; i++) await submit(flowCommand(flow, i, symbol, 'bench-', `${pass}${tag}`), false);
    }
  }
  await Promise.all(pending);
  const genMs = performance.now() - t0;
  await host.projected();
  const s = host.stats;
  await db.close();
  emitResult({ commands: count, rejected, genMs, fsyncs: s.journal.fsyncs, bytes: s.journal.bytes });
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
