import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ParsedCommandText } from '../parse.js';

/** Characters as people count them: Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const high = text.charCodeAt(i);
    if (high < 0xd800 || high > 0xdbff) continue;
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      count--;
      i++;
    }
  }
  return count;
}

/** Throws when `limit` is given and is not a whole number of at least 1. */
export function checkArgumentLimit(limit: number | undefined): void {
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1)) {
    throw new RangeError(`argumentChars must be a whole number of at least 1, got ${limit}`);
  }
}

/**
 * Refuses a command whose arguments are longer than `limit` characters, as a
 * protocol error (-32602 on JSON-RPC, 400 on HTTP+JSON) that names the command
 * and the limit. No limit when `limit` is undefined.
 */
export function enforceArgumentLimit(parsed: ParsedCommandText, limit: number | undefined): void {
  // A string of at most `limit` UTF-16 units has at most `limit` code points: no count needed.
  if (limit === undefined || parsed.args.length <= limit) return;
  const length = codePointLength(parsed.args);
  if (length <= limit) return;
  throw new RequestMalformedError(
    `The arguments of /${parsed.name} are ${length} characters long; the limit is ${limit} characters.`,
  );
}
