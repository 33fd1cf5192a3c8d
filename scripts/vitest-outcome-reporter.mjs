// A Vitest reporter that writes the run's outcome as JSON to the file named by VITEST_OUTCOME_FILE (nothing when it is
// unset), for scripts/test.mjs to tell a test that failed from a worker process that died under a finished or
// unfinished file. Shape: { reason, modules: [{ project, file, state, tests: { passed, failed, skipped, pending } }],
// unhandledErrors: [{ message, cause }] }. `state` is Vitest's TestModuleState ('passed', 'failed', 'skipped',
// 'pending', 'queued'); `pending` counts the tests that never reported a result (their worker died first).
import fs from 'node:fs';

/** @implements {import('vitest/node').Reporter} */
export default class OutcomeReporter {
  /**
   * @param {ReadonlyArray<import('vitest/node').TestModule>} testModules
   * @param {ReadonlyArray<{ message?: string, cause?: { message?: string } }>} unhandledErrors
   * @param {string} reason
   */
  onTestRunEnd(testModules, unhandledErrors, reason) {
    const file = process.env.VITEST_OUTCOME_FILE;
    if (!file) return;
    const modules = testModules.map((m) => {
      const tests = { passed: 0, failed: 0, skipped: 0, pending: 0 };
      for (const t of m.children.allTests()) tests[t.result().state] = (tests[t.result().state] ?? 0) + 1;
      return { project: m.project.name, file: m.moduleId, state: m.state(), tests };
    });
    const errors = unhandledErrors.map((e) => ({ message: String(e?.message ?? e), cause: e?.cause?.message ?? null }));
    fs.writeFileSync(file, JSON.stringify({ reason, modules, unhandledErrors: errors }, null, 1));
  }
}
