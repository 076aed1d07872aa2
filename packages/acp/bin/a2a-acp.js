#!/usr/bin/env node
// The bin lives outside dist/ so that npm links it even before the first build.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write(
    'a2a-acp is not built yet: run `npm run build` at the repository root (or `npm run build -w a2a-acp`), then try again.\n',
  );
  process.exit(1);
}
await import(main.href);
