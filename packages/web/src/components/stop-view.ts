import type { Entry } from '../a2a/transcript.js';

/** The harness's command that stops a turn and keeps the task (SEMANTICS §4). */
const STOP_COMMAND = 'stop';

/** A `/stop` reply with nothing to add: the answer it stopped already carries the mark. */
function saysOnlyStopped(entry: Entry): boolean {
  if (entry.kind !== 'reply' || entry.command !== STOP_COMMAND || entry.error) return false;
  const data = entry.data as { stopped?: unknown; queued?: unknown } | undefined;
  return data?.stopped === true && (data.queued === undefined || data.queued === 0);
}

/**
 * The keys of `/stop` lines and replies the stopped answer's own mark stands
 * for. A `/stop` that had something else to say (nothing was running, queued
 * messages run next, a refusal) stays with its card; one still waiting for
 * its reply is hidden, so Stop adds no line that then disappears.
 */
export function keysShownByStopMark(entries: readonly Entry[]): Set<string> {
  const hidden = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.kind !== 'user' || entry.command !== STOP_COMMAND) continue;
    const reply = entries
      .slice(i + 1)
      .find((later) => later.kind === 'reply' && later.command === STOP_COMMAND);
    if (reply === undefined) hidden.add(entry.key);
    else if (saysOnlyStopped(reply)) hidden.add(entry.key).add(reply.key);
  }
  return hidden;
}
