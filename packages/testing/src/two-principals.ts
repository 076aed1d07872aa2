import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiKeys, parseApiKeyList, type HarnessConfig } from 'a2a-harness';
import { startHarness, type TestHarness } from './harness.js';

const ALICE_KEY = 'alice-key-0123456789abcdef';
const BOB_KEY = 'bob-key-fedcba9876543210';

export interface TwoPrincipalHarness extends TestHarness {
  /** Alice may run `/deploy`; for Bob it is text for the model. */
  keys: { alice: string; bob: string };
  /** Writes `<name>.md` into the watched commands folder: a command for everyone. */
  addCommand(name: string, description: string): void;
}

/**
 * A harness with keys for two principals, alice and bob, and one custom
 * command restricted to alice: `/deploy` ("Deploy a service"). For the tests
 * that check each client offers exactly its caller's commands (SEMANTICS §9).
 */
export async function startTwoPrincipalHarness(
  options: { config?: HarnessConfig; webUiDir?: string } = {},
): Promise<TwoPrincipalHarness> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-two-principals-'));
  const commandsDir = path.join(dataDir, 'commands');
  mkdirSync(commandsDir, { recursive: true });
  writeFileSync(
    path.join(commandsDir, 'deploy.md'),
    '---\ndescription: Deploy a service\nprincipals: alice\n---\nDeploy $ARGUMENTS.\n',
  );
  const harness = await startHarness({
    dataDir,
    webUiDir: options.webUiDir,
    config: options.config ?? { offline: { latencyMs: 1 } },
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE_KEY},bob=${BOB_KEY}`)),
  });
  return {
    ...harness,
    keys: { alice: ALICE_KEY, bob: BOB_KEY },
    addCommand: (name, description) =>
      writeFileSync(
        path.join(commandsDir, `${name}.md`),
        `---\ndescription: ${description}\n---\n${description}.\n`,
      ),
  };
}
