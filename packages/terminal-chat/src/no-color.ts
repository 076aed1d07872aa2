/* eslint-disable no-control-regex -- rewriting escape sequences is this file's job */

/*
 * NO_COLOR (https://no-color.org): with the variable set and not empty, the
 * chat draws without colours. ink's colour library does not read it, so the
 * chat's output is rewritten on its way to the terminal: colours go, and
 * bold, dim, underline and inverse (the cursor) stay.
 */

/** Whether the environment asks for no colours. */
export function noColorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR ?? '') !== '';
}

const SGR = /\u001b\[([0-9;:]*)m/g;

/** SGR parameters that set a colour: foreground, background, bright, and the 256/RGB forms. */
function withoutColorParams(params: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < params.length; i++) {
    const code = Number(params[i]);
    if (code === 38 || code === 48 || code === 58) {
      // 38;5;n or 38;2;r;g;b: skip the colour's own numbers too.
      i += params[i + 1] === '5' ? 2 : params[i + 1] === '2' ? 4 : 0;
      continue;
    }
    const isColor =
      (code >= 30 && code <= 39) ||
      (code >= 40 && code <= 49) ||
      (code >= 90 && code <= 97) ||
      (code >= 100 && code <= 107);
    if (!isColor) kept.push(params[i]!);
  }
  return kept;
}

/** `text` with the colours taken out of its SGR sequences; a sequence with nothing left goes. */
export function withoutColors(text: string): string {
  return text.replace(SGR, (sequence, body: string) => {
    // `ESC[m` is a reset: it stays.
    if (body === '') return sequence;
    const kept = withoutColorParams(body.split(';'));
    return kept.length === 0 ? '' : `\u001b[${kept.join(';')}m`;
  });
}

/** `stdout` for ink, with {@link withoutColors} applied to every write; all else is the terminal's. */
export function colorlessOutput(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stdout, {
    get(target, property) {
      if (property === 'write') {
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...args: unknown[]) => boolean)(
            typeof chunk === 'string' ? withoutColors(chunk) : chunk,
            ...rest,
          );
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
