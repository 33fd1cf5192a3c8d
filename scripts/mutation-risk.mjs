#!/usr/bin/env node
// `npm run mutation:risk [-- perp otc ...]`: StrykerJS over the folders of the core whose rules limit what a user may
// take (packages/core/stryker.risk.config.mjs), one folder after another (`perp-risk`: only the perpetuals' functions
// that decide what a user may move or lose, a fifth of `perp`; `perp-orders`, `perp-settings`, `perp-liquidation`,
// `perp-funding`, `perp-engine`, `perp-math`: the rest of `perp` in parts, by layer file, that each report within the hour), then each folder's mutation score (killed +
// timed out over all mutants that tests cover or not, Stryker's "mutation score") from its JSON report. Incremental:
// a second run re-tests only the mutants of changed code and tests (delete packages/core/coverage/mutation-risk for a
// full run). Not part of `npm test`: the perpetuals take about an hour on 2 cores, the other folders minutes each.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const ALL = ['perp', 'otc', 'wallet', 'earn', 'rebate', 'ledger'];
const dirs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
const rows = [];
for (const dir of dirs) {
  const started = Date.now();
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.risk.config.mjs'], {
    cwd: 'packages/core',
    stdio: 'inherit',
    env: { ...process.env, MUTATE_DIR: dir },
  });
  const file = `packages/core/coverage/mutation-risk/${dir}/mutation.json`;
  if (r.status !== 0 || !fs.existsSync(file)) {
    rows.push({ dir, error: `stryker exited ${r.status}` });
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const count = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, other: 0 };
  for (const f of Object.values(report.files)) for (const m of f.mutants) count[m.status in count ? m.status : 'other']++;
  const valid = count.Killed + count.Timeout + count.Survived + count.NoCoverage;
  rows.push({ dir, ...count, score: valid === 0 ? 0 : ((count.Killed + count.Timeout) * 100) / valid, minutes: (Date.now() - started) / 60_000 });
  const x = rows[rows.length - 1];
  console.log(
    `\nmutation score of ${dir}: ${x.score.toFixed(1)}% (killed ${x.Killed}, timeout ${x.Timeout}, survived ${x.Survived}, no coverage ${x.NoCoverage})`,
  );
}
console.log('\nmutation scores (target 85%):');
for (const x of rows) {
  if (x.error) console.log(`  ${x.dir.padEnd(7)} ${x.error}`);
  else
    console.log(
      `  ${x.dir.padEnd(7)} ${x.score.toFixed(1).padStart(5)}%  killed ${x.Killed}, timeout ${x.Timeout}, survived ${x.Survived}, no coverage ${x.NoCoverage}  (${x.minutes.toFixed(1)} min)`,
    );
}
