/**
 * `@ag-ui/a2a`, used as its README shows (an `A2AAgent` over the `A2AClient`
 * of the @a2a-js/sdk it depends on, 0.2), against the real harness over HTTP.
 * That client reads the card at 0.2's path, /.well-known/agent.json, which the
 * harness serves beside the 1.0 path.
 */
import { createRequire } from 'node:module';
import { A2AAgent } from '@ag-ui/a2a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

// The client @ag-ui/a2a itself depends on, not the workspace's 1.x SDK.
const fromAgUi = createRequire(createRequire(import.meta.url).resolve('@ag-ui/a2a'));
const { A2AClient } = fromAgUi('@a2a-js/sdk/client') as {
  A2AClient: new (baseUrl: string, cardPath?: string) => unknown;
};

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const textOf = (messages: Array<{ role: string; content?: unknown }>) =>
  messages
    .filter((m) => m.role === 'assistant')
    .map((m) => String(m.content ?? ''))
    .join('\n');

async function run(text: string) {
  const agent = new A2AAgent({
    a2aClient: new A2AClient(harness.url) as never,
    initialMessages: [{ id: 'user-1', role: 'user', content: text } as never],
  });
  return agent.runAgent();
}

describe('@ag-ui/a2a', () => {
  it('an ordinary message: the model answer comes back as an assistant message', async () => {
    const { newMessages } = await run('Plan a team offsite');
    expect(textOf(newMessages as never)).toContain('You said: Plan a team offsite');
  });

  it('a command: its reply comes back as an assistant message', async () => {
    const { newMessages } = await run('/help');
    expect(textOf(newMessages as never)).toMatch(/^Commands:\n\/help/);
  });
});
