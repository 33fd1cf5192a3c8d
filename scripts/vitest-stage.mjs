// A Vitest stage of `npm test` (scripts/test.mjs) that tells a failed test from a worker process that died.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUTCOME_REPORTER = fileURLToPath(new URL('./vitest-outcome-reporter.mjs', import.meta.url));
/** At most this many test files are run again after their worker process died; more fails the stage. */
export const MAX_RERUN_FILES = 3;

/**
 * Runs `args` (`['vitest', 'run', ...]`) through `runner(label, args, env)`, which runs `npx <args>` and resolves with
 * its exit status, and resolves with the stage's status.
 *
 * A run whose only failure is a worker process that died (Vitest's "Worker exited unexpectedly": a fork that exited on
 * its own, seen once in CI on Node 24 with every test that reported a result passed) runs the files that did not
 * finish again, once, each with its own project; the stage passes only if that second run passes. When every file had
 * finished before the worker died, nothing was lost and the stage passes. Anything else fails the stage as before: a
 * failed test or file, any other unhandled error, more than MAX_RERUN_FILES unfinished files, or no outcome written.
 * What died, what was lost and the second run are printed (`log`, console.log by default).
 */
export async function vitestStage(label, args, env, runner, log = console.log) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitest-outcome-'));
  try {
    return await stageIn(path.join(dir, 'outcome.json'), label, args, env, runner, log);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** vitestStage with its outcome written to `outcomeFile`. */
async function stageIn(outcomeFile, label, args, env, runner, log) {
  const withOutcome = (a) => [...a, '--reporter=default', `--reporter=${OUTCOME_REPORTER}`];
  const outcomeEnv = { ...env, VITEST_OUTCOME_FILE: outcomeFile };
  const status = await runner(label, withOutcome(args), outcomeEnv);
  if (status === 0) return 0;
  const lost = lostToDeadWorkers(outcomeFile);
  if (lost === null) return status;
  const summary = 'a Vitest worker process died (Worker exited unexpectedly) with every test that reported a result passed';
  if (lost.length > MAX_RERUN_FILES) {
    log(`\n=== ${label}: ${summary}, but ${lost.length} files did not finish (more than ${MAX_RERUN_FILES}): FAILED`);
    return status;
  }
  if (lost.length === 0) {
    log(`\n=== ${label}: ${summary}, after every file had finished: ok`);
    return 0;
  }
  log(`\n=== ${label}: ${summary}; these files did not finish and run again, once:`);
  for (const m of lost) log(`  [${m.project}] ${m.file} ${JSON.stringify(m.tests)}`);
  let again = 0;
  for (const project of new Set(lost.map((m) => m.project))) {
    const files = lost.filter((m) => m.project === project).map((m) => m.file);
    fs.rmSync(outcomeFile, { force: true });
    const code = await runner(`${label}: run again [${project}]`, withOutcome(['vitest', 'run', '--project', project, ...files]), outcomeEnv);
    // The second run must have run every lost file to its end, not merely exited 0.
    const ran = readOutcome(outcomeFile);
    const finished = ran !== null && files.every((f) => ran.modules.some((m) => m.file === f && (m.state === 'passed' || m.state === 'skipped')));
    if (code !== 0 || !finished) again = code || 1;
  }
  return again;
}

function readOutcome(outcomeFile) {
  try {
    return JSON.parse(fs.readFileSync(outcomeFile, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The modules a dead worker took with it, from the outcome file of a failed run: null when the run failed for any
 * other reason (a failed test or module, an unhandled error other than a worker's unexpected exit, no outcome), else
 * the modules that never finished (state pending or queued, or a test without a result).
 */
export function lostToDeadWorkers(outcomeFile) {
  const outcome = readOutcome(outcomeFile);
  if (outcome === null) return null;
  const workerDied = (e) => e.cause === 'Worker exited unexpectedly' && /^\[vitest-pool\]: Worker \w+ emitted error\.$/.test(e.message);
  if (outcome.unhandledErrors.length === 0 || !outcome.unhandledErrors.every(workerDied)) return null;
  if (outcome.modules.some((m) => m.state === 'failed' || m.tests.failed > 0)) return null;
  return outcome.modules.filter((m) => m.state === 'pending' || m.state === 'queued' || m.tests.pending > 0);
}
