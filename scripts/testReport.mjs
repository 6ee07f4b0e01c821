/**
 * What `npm test` (scripts/test.mjs) repeats at the end of its output, where a log cut to its tail
 * still shows it: each failed run's failures, and the browser tests that passed only on their retry
 * (tests/e2e/retried.ts prints them with RETRIED_MARK).
 */

export const RETRIED_MARK = 'passed only on its retry:';

const SUMMARY_LINES = 250;

/** The failure report vitest prints at the end of a run, or the run's last lines when it printed none. */
export function failureReport(lines) {
  const start = lines.findIndex((l) => /Failed (Tests|Suites) \d+/.test(l));
  const report = start < 0 ? lines.slice(-40) : lines.slice(start);
  return report.length > SUMMARY_LINES ? [...report.slice(0, SUMMARY_LINES), `... ${report.length - SUMMARY_LINES} more lines above`] : report;
}

/** The lines naming a test that passed only on its retry. */
export const retriedTests = (lines) => lines.filter((l) => l.includes(RETRIED_MARK));
