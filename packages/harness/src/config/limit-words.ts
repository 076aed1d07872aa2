/**
 * What a refusal says when a request passes one of the `limits`: the limit in
 * a person's words, with its number. The config key (`limits.textChars`) is
 * for operators and stays in docs/configuration.md, which lists each key beside
 * the words it produces; a chat shows these texts as they are.
 */

/** A count as a person reads it: `100,000`. */
export function formatAmount(value: number): string {
  return value.toLocaleString('en-US');
}

const amount = formatAmount;

/** A length of time as a person reads it, in the unit it was set in: `1 min`, `90 s`, `400 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** The `turns` timeouts that end a turn whose model stops answering. */
export type TurnTimeout = 'firstByteMs' | 'idleMs' | 'totalMs';

function modelTimeout(which: TurnTimeout, modelId: string, ms: number): string {
  const time = formatDuration(ms);
  const ended = 'so the turn was ended';
  switch (which) {
    case 'firstByteMs':
      return `model ${modelId} sent nothing for ${time} after it was called, ${ended}: a model may take at most ${time} to start its answer.`;
    case 'idleMs':
      return `model ${modelId} stopped sending for ${time} in the middle of its answer, ${ended}: a model may pause at most ${time} within an answer.`;
    case 'totalMs':
      return `model ${modelId} was still answering after ${time}, ${ended}: an answer may take at most ${time}.`;
  }
}

export const limitWords = {
  bodyBytes: (limit: number): string =>
    `The request is too large: a request can be at most ${amount(limit)} bytes.`,

  partsPerMessage: (parts: number, limit: number): string =>
    `The message has ${amount(parts)} parts; a message can have at most ${amount(limit)}.`,

  textChars: (limit: number): string =>
    `The message is too long: messages can be at most ${amount(limit)} characters.`,

  idChars: (field: string, limit: number): string =>
    `message.${field} is too long: an id can be at most ${amount(limit)} characters.`,

  queuedPerTask: (taskId: string, limit: number): string =>
    `Task ${taskId} already has ${amount(limit)} messages waiting for the model, as many as a task can hold; wait for the current turn to finish.`,

  streamsPerPrincipal: (open: number): string =>
    `Too many open streams: this caller already has ${amount(open)} open, as many as one caller may hold; close one first.`,

  historyCharsPerOwner: (adding: number, stored: number, quota: number): string =>
    `Your tasks can keep at most ${amount(quota)} characters of history; they hold ${amount(stored)}, and this would store ${amount(adding)} more.`,

  /** `/fork`, when the copy would not fit in what the owner's tasks may keep. */
  forkOverQuota: (adding: number, left: number): string =>
    `No fork was made: it would copy ${amount(adding)} characters of history, and your tasks have room for ${amount(left)} more. Fork a shorter task, or ask the operator for a larger quota.`,

  /** The note that ends a turn whose model stopped answering (`turns.firstByteMs`, `idleMs`, `totalMs`). */
  modelTimeout,

  /** A custom command whose expanded prompt would be longer than a message may be. */
  promptTooLong: (command: string, maxChars: number): string =>
    `/${command} would send a prompt of more than ${amount(maxChars)} characters, longer than a message can be; nothing was sent. Give shorter arguments.`,
};
