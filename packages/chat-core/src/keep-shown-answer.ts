import type { AgentEntry, Entry } from './entries.js';

/**
 * After an outage a chat reads its task again, and the agent may have kept
 * less of a running answer than the chat had shown (a server killed before it
 * saved the latest chunks, or that saved none). What a person read does not
 * vanish: the answer the chat showed goes back in after its prompt, marked
 * incomplete, unless the task read again has it (or more of it).
 */
export function keepShownAnswer(shown: readonly Entry[], reread: readonly Entry[]): Entry[] {
  const answer = shown.findLast((entry): entry is AgentEntry => entry.kind === 'agent');
  const text = answer?.text.trimEnd() ?? '';
  if (!answer || text === '') return [...reread];
  const kept: AgentEntry = { ...answer, streaming: false, incomplete: true, held: undefined };
  const sameKey = reread.findIndex((entry) => entry.key === answer.key);
  if (sameKey !== -1) {
    const stored = reread[sameKey]!;
    if (stored.text.length >= text.length) return [...reread];
    return reread.map((entry, index) => (index === sameKey ? kept : entry));
  }
  if (reread.some((entry) => entry.kind === 'agent' && entry.text.includes(text))) {
    return [...reread];
  }
  const prompt = shown.slice(0, shown.indexOf(answer)).findLast((entry) => entry.kind === 'user');
  const after = prompt ? reread.findIndex((entry) => entry.key === prompt.key) : -1;
  const entries = [...reread];
  entries.splice(after === -1 ? entries.length : after + 1, 0, kept);
  return entries;
}
