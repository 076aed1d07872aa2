import type { IncomingMessage } from 'node:http';

/**
 * An error as body-parser gives it: the lane hands these to the same error
 * handler Express uses (`jsonRpcBody`), so refusals read the same.
 */
export type BodyError = Error & { status: number; type?: string; body?: string };

/** What JSON counts as white space (RFC 8259 §2), as body-parser skips it. */
const JSON_WHITESPACE = /^[ \t\n\r]*/;

/**
 * Reads the body of a request `laneServes` admitted (UTF-8 JSON of a declared
 * length within the limit) and parses it as `express.json()` (strict) does: a
 * leading BOM dropped, an empty body read as `{}`, and only an object or an
 * array accepted at the top. A callback, not a promise: this runs for every call.
 */
export function readJsonBody(
  req: IncomingMessage,
  done: (error: BodyError | undefined, body?: unknown) => void,
): void {
  let chunks: Buffer | Buffer[] | undefined;
  const onData = (chunk: Buffer) => {
    // Most bodies come in one chunk.
    if (chunks === undefined) chunks = chunk;
    else if (Array.isArray(chunks)) chunks.push(chunk);
    else chunks = [chunks, chunk];
  };
  const onEnd = () => {
    cleanUp();
    const bytes = Array.isArray(chunks) ? Buffer.concat(chunks) : chunks;
    let text = bytes === undefined ? '' : bytes.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let body: unknown;
    try {
      body = parseStrict(text);
    } catch (error) {
      done(Object.assign(error as Error, { status: 400, body: text, type: 'entity.parse.failed' }));
      return;
    }
    done(undefined, body);
  };
  // The client left before its body arrived (raw-body's `request aborted`).
  const onAborted = () => {
    cleanUp();
    done(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' }));
  };
  const onError = (error: Error) => {
    cleanUp();
    done(Object.assign(error, { status: 400 }));
  };
  const cleanUp = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', onError);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', onError);
}

function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = text[0] === '{' ? '{' : text.charAt(JSON_WHITESPACE.exec(text)![0].length);
  if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token '${first}'`);
  return JSON.parse(text) as unknown;
}
