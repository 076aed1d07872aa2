/**
 * The soak of `npm run soak`, shortened to 20 seconds: 32 clients mixing
 * commands, turns, cancels and subscriptions over real HTTP against the real
 * CLI, then every check of bench/soak must pass.
 */
import { expect, it } from 'vitest';
import { formatReport } from './report.js';
import { SOAK_DEFAULTS } from './options.js';
import { runSoak } from './run-soak.js';

it('20 s of mixed load: no errors, no stuck task, histories exact, memory steady', async () => {
  const report = await runSoak({ ...SOAK_DEFAULTS, durationSeconds: 20 });
  const failed = report.checks.filter((check) => !check.passed);
  expect(failed, formatReport(report)).toEqual([]);
  expect(report.passed).toBe(true);
}, 120_000);
