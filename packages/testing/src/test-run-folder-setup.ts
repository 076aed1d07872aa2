/**
 * Vitest global setup of the repository's configuration: every run, the unit
 * loop's included, holds the run's folder (test-run.ts), so that what its
 * tests leave in the temporary folder goes with it.
 */
import { holdTestRun } from './test-run.js';

export default function setup(): () => void {
  return holdTestRun().release;
}
