import { TaskState, type ListTasksRequest } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';

/** RFC 3339 §5.6 `date-time`: full date, `T`, full time with seconds, and an offset. */
const RFC3339_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** Whether `text` is an RFC 3339 timestamp naming a real instant (no 30 February, no hour 25). */
export function isRfc3339Timestamp(text: string): boolean {
  const match = RFC3339_DATE_TIME.exec(text);
  if (!match) return false;
  const field = (index: number) => Number(match[index] ?? 0);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map(field) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHour, offsetMinute] = [field(7), field(8)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    // RFC 3339 allows a leap second.
    second <= 60 &&
    offsetHour <= 23 &&
    offsetMinute <= 59 &&
    !Number.isNaN(Date.parse(text))
  );
}

const KNOWN_STATES = new Set<number>(
  Object.values(TaskState).filter(
    (value): value is number => typeof value === 'number' && value >= 0,
  ),
);

/**
 * Refuses a ListTasks request whose filters cannot be honoured, as a protocol
 * error (-32602 on JSON-RPC, 400 on HTTP+JSON): the SDK reads an unknown status
 * as UNRECOGNIZED, and `Date.parse` reads "2024", "-1" or "Dec 1" as dates.
 */
export function checkListTasksRequest(params: ListTasksRequest): void {
  if (params.status !== undefined && !KNOWN_STATES.has(params.status)) {
    throw new RequestMalformedError(
      'status must be one of the task states, such as TASK_STATE_WORKING.',
    );
  }
  // No context id holds a NUL (refused as messages come in), and PostgreSQL cannot be asked for one.
  if (params.contextId?.includes('\u0000')) {
    throw new RequestMalformedError('contextId must not contain a NUL character (U+0000).');
  }
  const after = params.statusTimestampAfter;
  if (after !== undefined && after !== '' && !isRfc3339Timestamp(after)) {
    throw new RequestMalformedError(
      'statusTimestampAfter must be an RFC 3339 timestamp, such as 2026-01-31T12:00:00Z.',
    );
  }
}
