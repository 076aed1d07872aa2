/**
 * SEMANTICS §9 through the ACP bridge: `available_commands_update` follows
 * the key. Two bridges, two principals, one harness with a custom command for
 * one of them; a public command file added later shows for both, and the
 * caller's own command stays.
 */
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
import { startTwoPrincipalHarness, type TwoPrincipalHarness } from 'a2a-testing/two-principals';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));

let harness: TwoPrincipalHarness;
let alice: BridgeProcess;
let bob: BridgeProcess;

const bridgeWith = (key: string) =>
  startBridge(harness.url, {
    command: { cwd: harnessDir, argv: [bundledHarnessCli(), 'acp'] },
    args: ['--card-refresh', '200', '--api-key', key],
  });

beforeAll(async () => {
  harness = await startTwoPrincipalHarness();
  [alice, bob] = await Promise.all([bridgeWith(harness.keys.alice), bridgeWith(harness.keys.bob)]);
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

  harness.addCommand('notes', 'Notes');
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
