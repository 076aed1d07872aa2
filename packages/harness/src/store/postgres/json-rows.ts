import type { Message, Task } from '@a2a-js/sdk';
import { replyLinkOf, toRow, type ReplyLink } from '../messages-table.js';
import type { Owner } from '../owner.js';
import { taskRowOf } from '../task-rows.js';

/**
 * Rows as the PostgreSQL functions take them: JSON parameters, made by
 * JSON.stringify, which the functions read with json_populate_recordset.
 */

/** Messages to append to a task (their place is the function's to find), with `link` for a reply. */
export function entryRows(taskId: string, entries: Message[], link?: ReplyLink): string {
  return jsonRows(
    entries.map((message) => {
      const row = toRow(taskId, 0, { ...message, taskId }, link);
      return { message_id: row.message_id, message: row.message, reply_to: row.reply_to };
    }),
  );
}

/** New tasks and their histories as JSON rows, for the insert function. */
export function newTaskRows(tasks: Task[], scope: Owner): { rows: string; messages: string } {
  // A new task's history starts at 0: no need to look for its end.
  const messages = tasks.flatMap((task) =>
    task.history.map((message, i) =>
      toRow(
        task.id,
        i,
        { ...message, taskId: task.id },
        replyLinkOf(task.history, task.status?.message),
      ),
    ),
  );
  return {
    rows: jsonRows(tasks.map((task) => taskRowOf(task, scope))),
    messages: jsonRows(messages),
  };
}

/** A lone UTF-16 surrogate: JSON escapes it, and PostgreSQL's json type then refuses the text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Rows as JSON for the functions. A client's ids may hold lone surrogates; `pg`
 * sends a plain parameter as UTF-8, where each becomes U+FFFD, and so does this.
 */
function jsonRows(rows: object[]): string {
  return jsonText(rows);
}

/** A value as JSON text for a `json` parameter, lone surrogates replaced as `pg` does. */
function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'string' ? inner.replace(LONE_SURROGATE, '\uFFFD') : inner,
  );
}
