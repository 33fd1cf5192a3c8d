#!/usr/bin/env node
// CI's dependency audit: `npm audit --omit=dev`, failing on any high or critical advisory of a runtime
// dependency. When the advisory endpoint cannot be reached (this workplace's registry answers the bulk advisory
// POST with 405), the audit cannot be made: that is printed loudly and does not fail the run, since it says
// nothing about our dependencies; any other error fails.
import { spawnSync } from 'node:child_process';

const r = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', shell: false });
let report;
try {
  report = JSON.parse(r.stdout);
} catch {
  console.error(`npm audit: no JSON answer (exit ${r.status}):\n${r.stderr}`);
  process.exit(1);
}
const counts = report?.metadata?.vulnerabilities;
if (counts) {
  const bad = (counts.high ?? 0) + (counts.critical ?? 0);
  console.log(`npm audit --omit=dev: ${JSON.stringify(counts)}`);
  if (bad > 0) {
    for (const [name, v] of Object.entries(report.vulnerabilities ?? {}))
      if (v.severity === 'high' || v.severity === 'critical') console.error(`  ${v.severity}: ${name} ${v.range ?? ''}`);
    process.exit(1);
  }
  process.exit(0);
}
const unreachable = typeof report?.statusCode === 'number' && [404, 405, 501, 502, 503].includes(report.statusCode);
if (unreachable || /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN/.test(String(report?.message ?? report?.error?.code ?? ''))) {
  console.warn(
    `\n*** npm audit could NOT run: the advisory endpoint is unreachable (${report.message ?? report.error?.summary}). No verdict on dependencies. ***\n`,
  );
  process.exit(0);
}
console.error(`npm audit failed: ${JSON.stringify(report).slice(0, 500)}`);
process.exit(1);
