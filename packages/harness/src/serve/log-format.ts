import type { DestinationStream } from 'pino';

/** `json`: one JSON object a line, for machines. `pretty`: pino-pretty's lines, for people. */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** Pretty on a terminal, JSON everywhere else (pipes, files, log collectors). */
export function defaultLogFormat(stdout: { isTTY?: boolean } = process.stdout): LogFormat {
  return stdout.isTTY ? 'pretty' : 'json';
}

/**
 * Where `createLogger` writes for `format`: undefined for JSON (its own
 * default), pino-pretty on stdout for people. Pretty writes are synchronous:
 * a person reads few lines, and none is lost when the process exits.
 * pino-pretty is loaded only then: JSON servers start without it.
 */
export async function logDestination(format: LogFormat): Promise<DestinationStream | undefined> {
  if (format === 'json') return undefined;
  const { PinoPretty } = await import('pino-pretty');
  return PinoPretty({
    destination: 1,
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}
