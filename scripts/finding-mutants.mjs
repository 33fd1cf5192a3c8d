#!/usr/bin/env node
// `npm run mutation:findings`: the mutants that put back each risk finding the adversary found (a transfer out of
// the contract account or an order check that ignores cross unrealized losses, a leverage change that frees margin a
// loss needs, the insurance fund's order limited by its balance instead of the bankruptcy price, a close the user
// cannot pay, no open loss, open orders that keep their old leverage, the funding job on the wall clock, a convert
// quote without the order's minimum). Each is applied to the source in place, the tests named for it run, and the
// mutant must be killed (the tests fail); the file is restored after each, also on an interrupt. Prints one line per
// mutant and exits 1 if any survives. Not part of `npm test` (about 5 minutes); run it on a quiet working tree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CORE_TESTS = ['packages/core/src/perp/perp-engine.test.ts', 'packages/core/test/perp.property.test.ts', 'packages/core/test/risk/'];
const MUTANTS = [
  {
    name: 'the order check ignores cross unrealized losses',
    file: 'packages/core/src/perp/perp-orders.ts',
    from: "if (this.spendable(userId, c.quote) < hold) return reject('insufficient_balance');",
    to: "if ((this.ledger.find(userId, 'CONTRACT', c.quote)?.available ?? 0n) < hold) return reject('insufficient_balance');",
    tests: CORE_TESTS,
  },
  {
    name: 'finding 1: a transfer out of CONTRACT ignores cross unrealized losses (engine)',
    file: 'packages/core/src/wallet/wallet-engine.ts',
    from: "if (spendable !== undefined && spendable < amount) return reject('insufficient_balance');",
    to: '',
    tests: CORE_TESTS,
  },
  {
    name: 'finding 1: the max withdraw amount counts no loss (engine and server)',
    file: 'packages/core/src/perp/perp-margin.ts',
    from: 'const v = (a === undefined ? 0n : a.available) + (upnl < 0n ? upnl : 0n);',
    to: 'const v = a === undefined ? 0n : a.available;',
    tests: [...CORE_TESTS, 'apps/server/src/domains/perp/perp.risk.api.test.ts'],
  },
  {
    name: 'finding 2: raising an isolated leverage releases down to ceil(cost / leverage)',
    file: 'packages/core/src/perp/perp-settings.ts',
    from: "if (need >= pos.margin || pos.mode === 'CROSS') return need - pos.margin;",
    to: 'return need - pos.margin;',
    tests: [...CORE_TESTS, 'apps/server/src/domains/perp/perp.risk.api.test.ts'],
  },
  {
    name: "finding 3: the fund's liquidation order limited by its balance, not the bankruptcy price",
    file: 'packages/core/src/perp/perp-liquidation.ts',
    from: 'const p = (f.cost + n - 1n) / n;',
    to: 'const p = (f.cost - this.sys(INSURANCE, m.cfg.quote).available + n - 1n) / n;',
    tests: [...CORE_TESTS, 'apps/server/src/domains/perp/perp.risk.api.test.ts'],
  },
  {
    name: 'a close beyond what the user can pay is executed (the fund pays)',
    file: 'packages/core/src/perp/perp-settlement.ts',
    from: "if (o.userId === INSURANCE || o.trigger === 'LIQUIDATION' || o.trigger === 'ADL') return true;",
    to: 'return true;',
    tests: CORE_TESTS,
  },
  {
    name: 'no open loss in the hold',
    file: 'packages/core/src/perp/perp-orders.ts',
    from: 'hold = orderCost(notional, st.leverage, c.takerFeePpm) + loss;',
    to: 'hold = orderCost(notional, st.leverage, c.takerFeePpm);',
    tests: CORE_TESTS,
  },
  {
    name: 'resting orders keep their leverage when it changes',
    file: 'packages/core/src/perp/perp-settings.ts',
    from: 'if (o.symbol !== cmd.symbol || o.reduceOnly || o.leverage === cmd.leverage) continue;',
    to: 'continue;',
    tests: CORE_TESTS,
  },
  {
    name: 'finding 4: the funding job reads the wall clock',
    file: 'apps/server/src/domains/market-jobs/index.ts',
    from: 'const funding = startFundingJob({ host: ctx.host, log: ctx.log, now });',
    to: 'const funding = startFundingJob({ host: ctx.host, log: ctx.log, now: Date.now });',
    tests: ['apps/server/src/domains/demo/demo-clock-funding.test.ts'],
  },
  {
    name: "finding 5: a convert quote skips the order's minimum",
    file: 'apps/server/src/domains/convert/convert.service.ts',
    from: "if (amount < min) throw new AppError('convert_below_minimum'",
    to: "if (amount < 0n) throw new AppError('convert_below_minimum'",
    tests: ['apps/server/src/domains/convert/convert.api.test.ts'],
  },
];

let restore = null;
process.on('SIGINT', () => {
  restore?.();
  process.exit(130);
});

const only = process.argv[2];
let survived = 0;
for (const m of MUTANTS) {
  if (only !== undefined && !m.name.includes(only)) continue;
  const original = fs.readFileSync(m.file, 'utf8');
  if (!original.includes(m.from)) {
    console.log(`MISSING  ${m.name}: the source line is gone (update the mutant)`);
    survived++;
    continue;
  }
  restore = () => fs.writeFileSync(m.file, original);
  fs.writeFileSync(m.file, original.replace(m.from, m.to));
  const started = Date.now();
  // core tests from the root (the workspace's vitest projects), the server's from its folder; the server's only when
  // the core's passed (a mutant the core's tests kill needs no server run)
  const core = m.tests.filter((t) => t.startsWith('packages/core/'));
  const server = m.tests.filter((t) => t.startsWith('apps/server/')).map((t) => t.slice('apps/server/'.length));
  const env = { ...process.env, PERP_RUNS: '20', RISK_RUNS: '20' };
  let failed = false;
  if (core.length > 0) failed = (spawnSync('npx', ['vitest', 'run', ...core], { encoding: 'utf8', env }).status ?? 1) !== 0;
  if (!failed && server.length > 0) failed = (spawnSync('npx', ['vitest', 'run', ...server], { cwd: 'apps/server', encoding: 'utf8', env }).status ?? 1) !== 0;
  restore();
  restore = null;
  const killed = failed;
  if (!killed) survived++;
  console.log(`${killed ? 'KILLED  ' : 'SURVIVED'} ${m.name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}
console.log(survived === 0 ? 'every finding mutant is killed' : `${survived} mutant(s) survived`);
process.exit(survived === 0 ? 0 : 1);
