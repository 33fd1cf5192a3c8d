#!/usr/bin/env node
// `node scripts/mutation-survivors.mjs <part> [--all]`: the mutants of a mutation:risk part
// (packages/core/coverage/mutation-risk/<part>/mutation.json) that no test killed, grouped by the function they sit in
// and printed with line, mutator and replacement, so that the tests to write can be read off. `--all` prints every
// mutant of each group (by default at most 8 per function).
import fs from 'node:fs';

const [part, flag] = process.argv.slice(2);
if (!part) throw new Error('usage: node scripts/mutation-survivors.mjs <part> [--all]');
const report = JSON.parse(fs.readFileSync(`packages/core/coverage/mutation-risk/${part}/mutation.json`, 'utf8'));
for (const [file, f] of Object.entries(report.files)) {
  const lines = f.source.split('\n');
  /** The name of the function or method that encloses line `n` (1-based), found by walking up to its header. */
  const owner = (n) => {
    for (let i = n - 1; i >= 0; i--) {
      const m = /^ {2}(?:private |protected |static |async )*([A-Za-z0-9_]+)\(|^(?:export )?function ([A-Za-z0-9_]+)\(/.exec(lines[i]);
      if (m) return m[1] ?? m[2];
    }
    return '(top)';
  };
  const groups = new Map();
  for (const m of f.mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const name = owner(m.location.start.line);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(m);
  }
  if (groups.size === 0) continue;
  console.log(`\n# ${file}`);
  for (const [name, ms] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`\n## ${name}: ${ms.length}`);
    for (const m of flag === '--all' ? ms : ms.slice(0, 8)) {
      const at = `${m.location.start.line}:${m.location.start.column}`;
      const repl = String(m.replacement ?? '')
        .replace(/\s+/g, ' ')
        .slice(0, 90);
      console.log(`  ${at.padEnd(8)} ${m.status === 'NoCoverage' ? 'NOCOV ' : '      '}${m.mutatorName.padEnd(22)} ${repl}`);
    }
    if (flag !== '--all' && ms.length > 8) console.log(`  … ${ms.length - 8} more`);
  }
}
