/**
 * Every TypeScript snippet of the README runs, not only compiles: each becomes
 * a module whose `declare`d names (the adopter's own card, executor, client)
 * come from real fixtures, and runs in a process of its own against a real
 * agent. A snippet that serves must answer its card; the others must exit 0.
 * The snippets are bundled in one build and run on plain node: started
 * through tsx, each compiled the library's sources again.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleAgent } from '../examples/agent.js';
import { packageDir } from './support/cli.js';
import { listen, type Listening } from 'a2a-testing/http';
import { bundleForNode } from 'a2a-testing/test-bins';
import { typescriptBlocks } from './support/markdown.js';

const snippetDir = join(
  packageDir,
  '..',
  '..',
  'node_modules',
  '.cache',
  'a2a-commands-readme-run',
);
const fixtures = join(packageDir, 'test', 'support', 'readme-fixtures.ts');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The snippet with its declared names bound to the fixtures, its agent at
 * `agentPort`, and its own port 4000 replaced by the one it is started with.
 */
export function runnable(code: string, agentPort: number): string {
  const bound = code
    .replace(/^declare const (\w+): [^;]+;.*$/gm, 'const $1 = __fixtures.$1!;')
    .replace(/^declare function (\w+)\([^)]*\): [^;]+;$/gm, 'const $1 = __fixtures.$1;')
    .replace(/127\.0\.0\.1:4000/g, `127.0.0.1:${agentPort}`)
    .replace(/\.listen\(4000\)/g, `.listen(Number(process.env.SNIPPET_PORT), '127.0.0.1')`);
  return `import * as __fixtures from ${JSON.stringify(fixtures)};\n${bound}\nexport {};\n`;
}

/** Stands for a snippet that breaks: the runner must see it fail. */
const BROKEN = { line: 0, code: "throw new Error('snippet broke');" };

let agent: Listening;
let blocks: Array<{ line: number; code: string }> = [];
beforeAll(async () => {
  const app = express();
  agent = await listen(app);
  app.use(createExampleAgent(agent.baseUrl).app);
  blocks = typescriptBlocks(await readFile(join(packageDir, 'README.md'), 'utf8'));
  await rm(snippetDir, { recursive: true, force: true });
  await mkdir(snippetDir, { recursive: true });
  const agentPort = Number(new URL(agent.baseUrl).port);
  const entries: Record<string, string> = {};
  for (const { line, code } of [BROKEN, ...blocks]) {
    const file = join(snippetDir, `readme-line-${line}.mts`);
    await writeFile(file, runnable(code, agentPort));
    entries[`readme-line-${line}`] = file;
  }
  await bundleForNode(entries, join(snippetDir, 'bundle'));
});
afterAll(async () => {
  await agent.close();
  await rm(snippetDir, { recursive: true, force: true });
});

/** Runs the bundled snippet of `line`: resolves with its exit code, or 'serving' once its card answers. */
async function runSnippet(line: number): Promise<{ outcome: string; stderr: string }> {
  const port = await freePort();
  const file = join(snippetDir, 'bundle', `readme-line-${line}.js`);
  const child = spawn(process.execPath, [file], {
    cwd: packageDir,
    env: { ...process.env, SNIPPET_PORT: String(port), SNIPPET_AGENT_URL: agent.baseUrl },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let running = true;
  const exited = new Promise<string>((resolve) =>
    child.on('exit', (exitCode) => {
      running = false;
      resolve(`exit ${exitCode}`);
    }),
  );
  // Asked until the snippet serves or exits, however long a busy machine takes to start it.
  const serving = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`).catch(
        () => undefined,
      );
      if (answer?.ok) return 'serving';
    }
    return 'exited';
  })();
  const outcome = await Promise.race([exited, serving]);
  child.kill();
  return { outcome, stderr };
}

describe('README.md snippets, run', () => {
  it('has snippets to run', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
  });

  it('finds a snippet that fails when run', async () => {
    const { outcome, stderr } = await runSnippet(BROKEN.line);
    expect(outcome).toBe('exit 1');
    expect(stderr).toContain('snippet broke');
  }, 60_000);

  it('each runs: a server answers its card, anything else exits 0', async () => {
    const failed: string[] = [];
    for (const { line, code } of blocks) {
      const { outcome, stderr } = await runSnippet(line);
      const serves = /\.listen\(4000\)/.test(code);
      const expected = serves ? 'serving' : 'exit 0';
      if (outcome !== expected)
        failed.push(`README line ${line}: ${outcome}, not ${expected}\n${stderr}`);
    }
    expect(failed).toEqual([]);
    // One process per snippet: minutes on a busy machine.
  }, 600_000);
});
