#!/usr/bin/env node
// The `a2a-commands` bin. It is a committed file, not one under dist/, so that
// npm links it at install time even in a fresh clone, before anything is built.
// There, with no dist/ yet, it runs the checker from source through tsx.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/check/main.js', import.meta.url);
let main;
if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    process.stderr.write(
      'a2a-commands: dist/ is missing and tsx is not installed; run `npm run build -w a2a-commands`\n',
    );
    process.exit(2);
  }
  ({ main } = await import(new URL('../src/check/main.ts', import.meta.url).href));
}
process.exitCode = await main(process.argv.slice(2));
