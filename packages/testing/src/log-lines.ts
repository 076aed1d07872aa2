import { Writable } from 'node:stream';

/** One JSON log line, parsed. Its fields are whatever the logger wrote. */
export type LogLine = Record<string, any>;

/**
 * A stream that keeps every JSON line written to it, parsed, for a test to read:
 * give it to the logger under test (`pino(options, stream)`).
 */
export function logLines(): { stream: Writable; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line !== '') lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  return { stream, lines };
}
