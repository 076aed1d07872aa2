/**
 * `a2a-harness chat` and `send` start without the server's modules: the CLI
 * defines `serve` without loading them, which took seconds on a loaded machine.
 * A module hook in a child process records every module the CLI's `serve`
 * definition loads.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const SERVE_COMMAND = fileURLToPath(new URL('../src/cli/serve-command.ts', import.meta.url));

/** Records each resolved module URL, passed back over a message port. */
const RECORDER = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;

async function modulesLoadedBy(file: string): Promise<string[]> {
  const script = `
import { register } from 'node:module';
const loaded = [];
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.push(url));
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RECORDER)}`)}, {
  data: { port: port2 },
  transferList: [port2],
});
await import(${JSON.stringify(pathToFileURL(file).href)});
setTimeout(() => { console.log(JSON.stringify(loaded)); process.exit(0); }, 200);
`;
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--conditions=a2a-source',
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    script,
  ]);
  return JSON.parse(stdout) as string[];
}

it('defining `serve` loads none of the server: no express, no serve.ts, no models', async () => {
  const loaded = await modulesLoadedBy(SERVE_COMMAND);
  expect(loaded.some((url) => url.includes('/commander/'))).toBe(true);
  const server = loaded.filter(
    (url) =>
      url.includes('/node_modules/express/') ||
      url.includes('/node_modules/ai/') ||
      url.endsWith('/src/serve/serve.ts'),
  );
  expect(server).toEqual([]);
}, 60_000);
