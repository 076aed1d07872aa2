import type { IncomingMessage } from 'node:http';

/**
 * An error as body-parser gives it: the lane hands these to the same error
 * handler Express uses (`jsonRpcBody`), so refusals read the same.
 */
export type BodyError = Error & { status: number; type?: string; body?: string };

/** What JSON counts as white space (RFC 8259 §2), as body-parser skips it. */
const JSON_WHITESPACE = /^[ \t\n\r]*/;

/**
 * The body of a request `laneServes` admitted (UTF-8 JSON of a declared
 * length within the limit), parsed as `express.json()` (strict) parses it:
 * a leading BOM dropped, an empty body read as `{}`, and only an object or an
 * array accepted at the top.
 */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      cleanUp();
      let text = Buffer.concat(chunks).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        resolve(parseStrict(text));
      } catch (error) {
        reject(
          Object.assign(error as Error, { status: 400, body: text, type: 'entity.parse.failed' }),
        );
      }
    };
    // The client left before its body arrived (raw-body's `request aborted`).
    const onAborted = () => {
      cleanUp();
      reject(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' }));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(Object.assign(error, { status: 400 }));
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
  });
}

function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = text.charAt(JSON_WHITESPACE.exec(text)![0].length);
  if (first !== '{' && first !== '[') throw new SyntaxError(`Unexpected token '${first}'`);
  return JSON.parse(text) as unknown;
}
