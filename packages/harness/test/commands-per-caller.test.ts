/**
 * SEMANTICS §9 in the harness: custom commands for some callers only, by
 * principal or by a group of the keys file. The public card lists neither;
 * each caller's extended card lists exactly their commands; a command a caller
 * may not run goes to the model as their text, and runs for the one it allows.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { AgentCard } from '@a2a-js/sdk';
import { pino } from 'pino';
import { readCommands } from 'a2a-commands/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiKeys, type ApiKeys } from '../src/serve/api-keys.js';
import { reloadApiKeys } from '../src/serve/key-reload.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, userText } from 'a2a-testing/http';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const CAROL = 'carol-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let dir: string;
let keyFile: string;
let keys: ApiKeys;
let harness: TestHarness;

const keysText = (group: string) =>
  `alice=${ALICE}\nbob=${BOB}\ncarol=${CAROL}\n# who deploys\n@ops = ${group}\n`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-callers-'));
  keyFile = path.join(dir, 'keys.txt');
  writeFileSync(keyFile, keysText('alice'));
  keys = loadApiKeys({ file: keyFile })!;
  const dataDir = path.join(dir, 'data');
  mkdirSync(path.join(dataDir, 'commands'), { recursive: true });
  writeFileSync(
    path.join(dataDir, 'commands', 'deploy.md'),
    '---\ndescription: Deploy a service\nargument-hint: <service>\ngroups: ops\n---\nDeploy $ARGUMENTS.\n',
  );
  writeFileSync(
    path.join(dataDir, 'commands', 'standup.md'),
    '---\ndescription: Write the standup notes\nprincipals: [bob]\n---\nWrite standup notes.\n',
  );
  harness = await startHarness({ dataDir, apiKeys: keys });
});
afterAll(() => harness.stop());

async function extendedCommands(key: string): Promise<string[]> {
  const { body } = await rpc(harness.url, 'GetExtendedAgentCard', {}, as(key));
  expect(body.error).toBeUndefined();
  return readCommands(body.result).map((c) => c.name);
}

const custom = (names: string[]) => names.filter((n) => n === 'deploy' || n === 'standup');

describe('the cards', () => {
  it('the public card lists neither command, and offers the extended card', async () => {
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(readCommands(card).map((c) => c.name)).toContain('help');
    expect(JSON.stringify(card)).not.toMatch(/deploy|standup/i);
  });

  it("two principals' extended cards list different commands, on JSON-RPC and REST", async () => {
    expect(custom(await extendedCommands(ALICE))).toEqual(['deploy']);
    expect(custom(await extendedCommands(BOB))).toEqual(['standup']);
    expect(custom(await extendedCommands(CAROL))).toEqual([]);
    expect(await extendedCommands(CAROL)).toContain('help');
    const { status, body } = await rest(harness.url, '/extendedAgentCard', undefined, as(BOB));
    expect(status).toBe(200);
    expect(custom(readCommands(body).map((c) => c.name))).toEqual(['standup']);
  });

  // The bindings write the card as protobuf JSON, which leaves out each field at its
  // default: an extension entry's `required: false` arrives absent, and absent is false.
  // The public card writes defaults out, and adds 0.3's fields for 0.3 clients.
  it('a caller with no command of their own gets the public card on both bindings, defaults left out', async () => {
    const publicCard = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    const { body: overRpc } = await rpc(harness.url, 'GetExtendedAgentCard', {}, as(CAROL));
    const { body: overRest } = await rest(harness.url, '/extendedAgentCard', undefined, as(CAROL));
    for (const extended of [overRpc.result, overRest]) {
      const entries = extended.capabilities.extensions as Record<string, unknown>[];
      expect(entries.map((entry) => 'required' in entry)).toEqual([false, false]);
      expect(entries.map((entry) => ({ required: false, ...entry }))).toEqual(
        publicCard.capabilities.extensions,
      );
      expect(AgentCard.fromJSON(extended)).toEqual(AgentCard.fromJSON(publicCard));
    }
  });

  it('the extended card needs a key like every call but the public card', async () => {
    const { status } = await rpc(harness.url, 'GetExtendedAgentCard', {});
    expect(status).toBe(401);
  });
});

describe('running them', () => {
  it('runs for the caller it allows: a command reply', async () => {
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/deploy web') },
      as(ALICE),
    );
    expect(body.result.task.status.message.metadata).toMatchObject({ command: 'deploy' });
  });

  it('for another caller the text goes to the model, and nothing runs', async () => {
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/deploy web') },
      as(BOB),
    );
    const task = body.result.task;
    expect(JSON.stringify(task)).toContain('You said: /deploy web');
    expect(JSON.stringify(task)).not.toContain('"command"');
    const { body: listed } = await rpc(harness.url, 'ListTasks', {}, as(BOB));
    // No sub-task was made for Bob: the command never ran.
    expect(listed.result.tasks).toHaveLength(1);
  });

  it("/help lists the caller's own commands, and knows no other", async () => {
    const help = async (key: string, text: string) => {
      const { body } = await rpc(harness.url, 'SendMessage', { message: userText(text) }, as(key));
      return body.result.task.status.message.parts[0].text as string;
    };
    expect(await help(BOB, '/help')).toContain('/standup');
    expect(await help(BOB, '/help')).not.toContain('/deploy');
    expect(await help(BOB, '/help deploy')).toMatch(/^There is no command "deploy"/);
    expect(await help(ALICE, '/help deploy')).toContain('/deploy <service>');
  });
});

describe('the keys file', () => {
  it('a reload moves group members; a file that cannot be used keeps the old groups', async () => {
    const logger = pino({ level: 'silent' });
    const load = () => loadApiKeys({ file: keyFile });
    writeFileSync(keyFile, keysText('bob'));
    expect(reloadApiKeys({ keys, load, logger })).toBe(true);
    expect(custom(await extendedCommands(BOB))).toEqual(['deploy', 'standup']);
    expect(custom(await extendedCommands(ALICE))).toEqual([]);

    writeFileSync(keyFile, keysText('bob, dave'));
    expect(reloadApiKeys({ keys, load, logger })).toBe(false);
    expect(custom(await extendedCommands(BOB))).toEqual(['deploy', 'standup']);
  });
});
