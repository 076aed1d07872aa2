/** The soak's verdicts, from what it counted and read back. */
import type { Tally } from './ledger.js';
import type { SoakOptions } from './options.js';
import type { RssVerdict } from './rss.js';
import type { HistoryCheck } from './verify.js';

export interface SoakReport {
  options: Omit<SoakOptions, 'log'>;
  store: string;
  elapsedSeconds: number;
  requests: Record<string, number>;
  commands: Record<string, number>;
  expectedRefusals: Record<string, number>;
  errors: Tally['errors'];
  serverErrorLogs: Record<string, unknown>[];
  stuck: string[];
  histories: HistoryCheck;
  historyRule: string;
  rss: RssVerdict & { series: number[] };
  checks: { name: string; passed: boolean; detail: string }[];
  passed: boolean;
}

/** Every check of a run; the run passes when all pass. */
export function checksOf(r: SoakReport): SoakReport['checks'] {
  const h = r.histories;
  const t = h.totals;
  return [
    {
      name: 'errors other than expected refusals',
      passed: r.errors.length === 0,
      detail: `${r.errors.length} (expected refusals: ${sum(r.expectedRefusals)})`,
    },
    {
      name: 'server log lines at level error',
      passed: r.serverErrorLogs.length === 0,
      detail: String(r.serverErrorLogs.length),
    },
    {
      name: `tasks still working after a ${r.options.drainSeconds} s drain`,
      passed: r.stuck.length === 0,
      detail: String(r.stuck.length),
    },
    {
      name: 'histories hold what the clients sent and got',
      passed: h.problems.length === 0 && h.uncertain.length === 0,
      detail:
        `${h.tasks} tasks (${h.canceled} canceled), ${h.problems.length} problems, ${h.uncertain.length} unchecked; ` +
        `user messages ${t.userStored} stored / ${t.userAccepted} accepted, ` +
        `replies ${t.repliesStored} / ${t.repliesReceived}, ` +
        `answers ${t.answersStored} stored / ${t.turnsAccepted} turns (${t.answersSeen} seen)`,
    },
    {
      name: 'server RSS stable in the last half',
      passed: r.rss.stable,
      detail:
        `median Q3 ${r.rss.q3Median.toFixed(1)} → Q4 ${r.rss.q4Median.toFixed(1)} MiB ` +
        `(${(r.rss.growth * 100).toFixed(1)}%), max Q3 ${r.rss.q3Max.toFixed(1)} → Q4 ${r.rss.q4Max.toFixed(1)} MiB`,
    },
  ];
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
