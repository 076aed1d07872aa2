/**
 * The package as npm ships it: built and packed once for the run in a
 * temporary folder (the working tree is left as it was), the tarball installed into a new project
 * outside the workspace, an agent and a client compiled against it under
 * strict settings and run over loopback. Also: no test files in the tarball,
 * the license and metadata are there, and `moduleResolution: node10` finds
 * the subpaths.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedVersion, installInProject } from 'a2a-testing/packing';
import { packedForRun } from 'a2a-testing/run-packs';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');

/**
 * A strict compile that checks the SDK's and Express's declarations too
 * (skipLibCheck off): over 100 s when other files share the CPU.
 */
const COMPILE_LIMIT_MS = 5 * 60_000;

/** What the tree's dist looks like: whether it is there, when it was made, what it holds. */
function treeDist(): string {
  const dist = join(packageDir, 'dist');
  if (!existsSync(dist)) return 'absent';
  return `${statSync(dist).mtimeMs} ${readdirSync(dist, { recursive: true }).length} files`;
}

const AGENT_AND_CLIENT = `
import type { AgentCard } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { CommandError, CommandRegistry, COMMANDS_EXTENSION_URI } from 'a2a-commands';
import { commandOf, readCommands, replyErrorOf, replyText, sendText } from 'a2a-commands/client';
import { commandsRoutes } from 'a2a-commands/express';
import { createCommandsServer } from 'a2a-commands/server';
import { echoExecutor } from './echo-executor.js';

const registry = new CommandRegistry();
registry.register({ name: 'shout', description: 'Shout it', argument_hint: '<text>', run: ({ args }) => args.toUpperCase() });
registry.register({ name: 'fail', description: 'Refuses', run: () => { throw new CommandError('no', { code: 'nope' }); } });

const app = express();
const listening = app.listen(0, '127.0.0.1');
await new Promise((resolve) => listening.once('listening', resolve));
const baseUrl = 'http://127.0.0.1:' + (listening.address() as AddressInfo).port;
const agentCard: AgentCard = {
  name: 'packed', description: 'from the tarball', version: '1.0.0',
  supportedInterfaces: [{ url: baseUrl + '/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  capabilities: { streaming: true, extensions: [] }, provider: undefined, skills: [], signatures: [],
  securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
};
const server = createCommandsServer({ agentCard, executor: echoExecutor(), registry });
app.use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication }));

const client = await new ClientFactory().createFromUrl(baseUrl);
const card = await client.getAgentCard();
const shout = await sendText(client, '/shout hello');
const bare = await sendText(client, '/shout');
const fail = await sendText(client, '/fail');
const answer = await sendText(client, 'hi there');
console.log(JSON.stringify({
  uri: card.capabilities?.extensions.some((e) => e.uri === COMMANDS_EXTENSION_URI),
  commands: readCommands(card).map((c) => c.name),
  shout: [commandOf(shout), replyText(shout)],
  bare: replyErrorOf(bare),
  fail: replyErrorOf(fail),
  answer: [commandOf(answer), replyText(answer)],
}));
listening.close();
listening.closeAllConnections();
`;

const NODE10_CHECK = `
import type { CommandSpec, CommandReplyError } from 'a2a-commands/client';
import type { CommandsServer } from 'a2a-commands/server';
import type { CommandsRoutesOptions } from 'a2a-commands/express';
import type { CommandDefinition } from 'a2a-commands';
export type Seen = [CommandSpec, CommandReplyError, CommandsServer, CommandsRoutesOptions, CommandDefinition];
`;

const STRICT = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    outDir: 'out',
    types: ['node'],
  },
  files: ['main.ts', 'echo-executor.ts'],
};

const NODE10 = {
  compilerOptions: {
    module: 'commonjs',
    moduleResolution: 'node10',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  files: ['node10.ts'],
};

/** A loopback port nothing listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let work: string;
let files: string[];
let distBefore: string;

beforeAll(async () => {
  distBefore = treeDist();
  work = await mkdtemp(join(tmpdir(), 'a2a-commands-packed-'));
  const [packed] = await packedForRun(['a2a-commands']);
  files = packed!.files;

  const project = join(work, 'project');
  await installInProject(project, [packed!], {
    dependencies: {
      '@a2a-js/sdk': installedVersion('@a2a-js/sdk'),
      express: installedVersion('express'),
    },
    devDependencies: {
      '@types/express': installedVersion('@types/express'),
      '@types/node': installedVersion('@types/node'),
      tsx: installedVersion('tsx'),
    },
  });
  await writeFile(join(project, 'main.ts'), AGENT_AND_CLIENT);
  // The executor the package ships as an example, compiled here like the adopter's own code.
  const shipped = await readFile(
    join(project, 'node_modules/a2a-commands/examples/echo-executor.ts'),
    'utf8',
  );
  await writeFile(join(project, 'echo-executor.ts'), shipped);
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(STRICT));
  await writeFile(join(project, 'node10.ts'), NODE10_CHECK);
  await writeFile(join(project, 'tsconfig.node10.json'), JSON.stringify(NODE10));
}, 10 * 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed a2a-commands', () => {
  it('is built and packed outside the working tree: its dist is as it was', () => {
    expect(treeDist()).toBe(distBefore);
  });

  it('ships the build, the license and the examples, and no test file', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/client/index.d.ts');
    expect(files).toContain('dist/schema/commands-extension-v1.schema.json');
    expect(files).toContain('LICENSE');
    expect(files).toContain('examples/agent.ts');
    expect(files).toContain('bin/a2a-commands.js');
    expect(files.filter((path) => /\.test\.|(^|\/)test\//.test(path))).toEqual([]);
  });

  it('declares its license text, repository, keywords and peers', async () => {
    const project = join(work, 'project', 'node_modules', 'a2a-commands');
    const license = await readFile(join(project, 'LICENSE'), 'utf8');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'));
    expect(manifest.repository.url).toMatch(/github\.com/);
    expect(manifest.keywords).toContain('a2a');
    expect(manifest.exports['./package.json']).toBe('./package.json');
    expect(manifest.peerDependenciesMeta['@types/express']).toEqual({ optional: true });
    // The server half (the completion route, the checker) compiles schemas; the client never
    // imports ajv (client-bundle.test.ts), so a browser build does not carry it.
    expect(manifest.dependencies.ajv).toBeDefined();
  });

  it(
    'compiles an agent and a client under strict settings, and they talk over loopback',
    async () => {
      const project = join(work, 'project');
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project });
      const { stdout } = await run(process.execPath, ['out/main.js'], { cwd: project });
      expect(JSON.parse(stdout)).toEqual({
        uri: true,
        commands: ['shout', 'fail'],
        shout: ['shout', 'HELLO'],
        bare: {
          code: 'missing-argument',
          message: '/shout needs an argument: type /shout <text>.',
        },
        fail: { code: 'nope', message: 'no' },
        answer: [null, expect.stringContaining('hi there')],
      });
    },
    COMPILE_LIMIT_MS,
  );

  it(
    'resolves every subpath with moduleResolution node10 (typesVersions)',
    async () => {
      const project = join(work, 'project');
      await run(process.execPath, [tsc, '-p', 'tsconfig.node10.json'], { cwd: project });
    },
    COMPILE_LIMIT_MS,
  );

  it('runs its example from the installed package, and its bin checks that agent', async () => {
    const project = join(work, 'project');
    const port = await freePort();
    const agent = spawn(
      process.execPath,
      [join(project, 'node_modules/.bin/tsx'), 'node_modules/a2a-commands/examples/agent.ts'],
      {
        cwd: project,
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        agent.stdout.on('data', (chunk: Buffer) => {
          if (String(chunk).includes('Example agent on')) resolve();
        });
        agent.once('exit', (code) => reject(new Error(`the example exited with ${code}`)));
      });
      const { stdout } = await run(
        process.execPath,
        [join(project, 'node_modules/.bin/a2a-commands'), 'check', `http://127.0.0.1:${port}`],
        { cwd: project },
      );
      expect(stdout).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/m);
    } finally {
      agent.kill();
    }
  }, 120_000);

  it('package.json is importable through the exports map', async () => {
    const project = join(work, 'project');
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import('a2a-commands/package.json', { with: { type: 'json' } }).then((m) => console.log(m.default.name))",
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe('a2a-commands');
  });
});
