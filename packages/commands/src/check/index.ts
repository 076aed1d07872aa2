export {
  checkAgent,
  cardUrl,
  type CheckOptions,
  type CheckReport,
  type CheckResult,
  type CheckStatus,
} from './run-checks.js';
export { formatReport } from './report.js';
