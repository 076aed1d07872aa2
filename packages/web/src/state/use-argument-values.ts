import type { ArgumentValues } from 'a2a-commands/client/completion';
import { useEffect, useState } from 'react';

/** Asks for the values of `input`'s argument, e.g. `/model ` → the models. */
export type ArgumentValuesSource = (
  input: string,
  signal: AbortSignal,
) => Promise<ArgumentValues | undefined>;

/** How long typing must pause before the agent is asked, in ms. */
export const PAUSE_MS = 80;

/**
 * The values offered for what the composer holds, or undefined. A request is
 * made once typing pauses; an older answer never replaces a newer one, and a
 * failed request offers nothing (the hint stays).
 */
export function useArgumentValues(
  input: string,
  source: ArgumentValuesSource | undefined,
): ArgumentValues | undefined {
  const [answer, setAnswer] = useState<{ input: string; values?: ArgumentValues }>();

  useEffect(() => {
    if (!source || !input.startsWith('/')) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      source(input, abort.signal).then(
        (values) => {
          if (!abort.signal.aborted) setAnswer({ input, values });
        },
        () => {
          if (!abort.signal.aborted) setAnswer({ input });
        },
      );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [input, source]);

  // Only the answer for exactly what is typed now.
  return answer?.input === input && answer.values && answer.values.values.length > 0
    ? answer.values
    : undefined;
}
