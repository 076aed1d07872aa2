/**
 * The soak of `npm run soak`, shortened to 2,400 actions (about 20 s on an idle
 * machine): 32 clients mixing commands, turns, cancels and subscriptions over
 * real HTTP against the real CLI, then every check of bench/soak must pass.
 * Bounded by its actions rather than its time, it does the same work however
 * busy the machine is, so it runs beside the other files.
 */
import { expect, it } from 'vitest';
import { formatReport } from './report.js';
import { SOAK_DEFAULTS } from './options.js';
import { runSoak } from './run-soak.js';

it('2,400 actions of mixed load: no errors, no stuck task, histories exact, memory steady', async () => {
  // The drain is a bound: it ends as soon as no turn runs.
  const report = await runSoak({ ...SOAK_DEFAULTS, actions: 2400, drainSeconds: 30 });
  const failed = report.checks.filter((check) => !check.passed);
  expect(failed, formatReport(report)).toEqual([]);
  expect(report.passed).toBe(true);
}, 180_000);
