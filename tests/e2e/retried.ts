/**
 * Names each browser test that passed only on its retry (vitest.config.ts retries them once), so a
 * test that fails now and then shows in the report instead of passing silently.
 */
import { beforeEach } from 'vitest';
import { RETRIED_MARK } from '../../scripts/testReport.mjs';

beforeEach(({ task, onTestFinished, onTestFailed }) => {
  // The first attempt's error, which the report of a test that then passes does not show.
  onTestFailed(() => console.warn(`attempt ${(task.result?.retryCount ?? 0) + 1} of ${task.name} failed: ${task.result?.errors?.[0]?.message?.slice(0, 1000)}`));
  onTestFinished(() => {
    if ((task.result?.retryCount ?? 0) > 0 && task.result?.state === 'pass') console.warn(`${RETRIED_MARK} ${task.file?.name} > ${task.name}`);
  });
});
