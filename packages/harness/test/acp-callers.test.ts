/**
 * SEMANTICS §9 through the ACP bridge: `available_commands_update` follows
 * the key. Two bridges, two principals, one harness with a custom command for
 * one of them; a public command file added later shows for both, and the
 * caller's own command stays.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  agentText,
  commandNames,
  newSession,
  prompt,
  startBridge,
  until,
  updatesOf,
  type BridgeProcess,
} from 'a2a-testing/acp-bridge';
import { bundledHarnessCli } from 'a2a-testing/harness-cli';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));
const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';

let harness: TestHarness;
let commandsDir: string;
let alice: BridgeProcess;
let bob: BridgeProcess;

const bridgeWith = (key: string) =>
  startBridge(harness.url, {
    command: { cwd: harnessDir, argv: [bundledHarnessCli(), 'acp'] },
    args: ['--card-refresh', '200', '--api-key', key],
  });

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-acp-callers-'));
  commandsDir = path.join(dataDir, 'commands');
  mkdirSync(commandsDir, { recursive: true });
  writeFileSync(
    path.join(commandsDir, 'deploy.md'),
    '---\ndescription: Deploy a service\nprincipals: alice\n---\nDeploy $ARGUMENTS.\n',
  );
  harness = await startHarness({
    dataDir,
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
    config: { offline: { latencyMs: 1 } },
  });
  [alice, bob] = await Promise.all([bridgeWith(ALICE), bridgeWith(BOB)]);
}, 120_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await harness?.stop();
});

it("each editor is offered its caller's commands, and they follow the card", async () => {
  const aliceSession = await newSession(alice);
  const bobSession = await newSession(bob);
  const aliceNames = await until(() => commandNames(alice, aliceSession), "alice's commands");
  const bobNames = await until(() => commandNames(bob, bobSession), "bob's commands");
  expect(aliceNames).toContain('deploy');
  expect(bobNames).toContain('help');
  expect(bobNames).not.toContain('deploy');

  writeFileSync(path.join(commandsDir, 'notes.md'), '---\ndescription: Notes\n---\nNotes.\n');
  await until(() => commandNames(alice, aliceSession)?.includes('notes'), '/notes for alice');
  await until(() => commandNames(bob, bobSession)?.includes('notes'), '/notes for bob');
  expect(commandNames(alice, aliceSession)).toContain('deploy');
  expect(commandNames(bob, bobSession)).not.toContain('deploy');
}, 60_000);

it('/deploy runs for alice, and reaches the model as text for bob', async () => {
  const aliceSession = await newSession(alice);
  let from = alice.notifications.length;
  await prompt(alice, aliceSession, '/deploy web');
  expect(agentText(updatesOf(alice, aliceSession, from))).toMatch(/^\*\*\/deploy\*\*/);

  const bobSession = await newSession(bob);
  from = bob.notifications.length;
  await prompt(bob, bobSession, '/deploy web');
  expect(agentText(updatesOf(bob, bobSession, from))).toContain('You said: /deploy web');
}, 60_000);
