import type { CheckReport, CheckResult } from './run-checks.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

/** One line per result: status, where, id, then what was seen. */
export function formatResult(result: CheckResult): string {
  const where = result.binding ? `[${result.binding}] ` : '';
  return `${LABEL[result.status]}  ${where}${result.id}: ${result.detail}`;
}

/** The header before the results. */
export function formatHeader(
  report: Pick<CheckReport, 'url' | 'agent' | 'bindings' | 'probe'>,
): string {
  const agent = [report.agent?.name, report.agent?.version].filter(Boolean).join(' ');
  return [
    `a2a-commands check ${report.url}`,
    `agent: ${agent || '(unnamed)'}; bindings: ${report.bindings.join(', ') || 'none'}; probing with ${report.probe ?? '(no command)'}`,
  ].join('\n');
}

export function formatSummary(report: CheckReport): string {
  const { pass, fail, skip } = report.summary;
  return `${pass} passed, ${fail} failed, ${skip} skipped`;
}

export function formatReport(report: CheckReport): string {
  return [
    formatHeader(report),
    ...report.results.map(formatResult),
    ...report.notes.map((note) => `NOTE  ${note}`),
    formatSummary(report),
  ].join('\n');
}
