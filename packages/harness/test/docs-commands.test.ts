/**
 * docs/commands.md quotes real replies; this test keeps them real.
 * A quoted exchange is a code block whose lines `> text` are what was sent and
 * whose other lines are the reply's text. Each such block is preceded by a marker:
 *
 *   <!-- check-replies -->                 run on a new task, on a harness with no config file
 *   <!-- check-replies config=local -->    ... with `defaultModel: offline/echo` and a provider
 *                                          `local` whose fixed model list is [llama3.2]
 *   <!-- check-replies after="a|b" -->     send `a`, then `b`, on the task first, unquoted
 *   <!-- unchecked: <why> -->              not run (the reason says why), listed below
 *
 * Every block is run over real HTTP (JSON-RPC) against a real harness, and each
 * reply text must equal the quoted one, with task ids written as `<id>` on both sides.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarnessConfig } from '../src/config/config.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

const DOC = fileURLToPath(new URL('../../../docs/commands.md', import.meta.url));

const CONFIGS: Record<string, HarnessConfig> = {
  none: {},
  local: {
    defaultModel: 'offline/echo',
    // A fixed list: the harness never calls this address.
    providers: [{ name: 'local', baseUrl: 'http://127.0.0.1:9/v1', models: ['llama3.2'] }],
  },
};

interface Exchange {
  sent: string;
  reply: string;
}

interface QuotedBlock {
  line: number;
  config: string;
  after: string[];
  exchanges: Exchange[];
}

interface Markdown {
  checked: QuotedBlock[];
  unchecked: Array<{ line: number; why: string }>;
  /** Blocks of `> ` exchanges with no marker before them. */
  unmarked: number[];
}

const MARKER = /^<!-- check-replies((?:\s+[a-z]+=(?:"[^"]*"|\S+))*)\s*-->$/;
const UNCHECKED = /^<!-- unchecked: (.+) -->$/;

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(/([a-z]+)=(?:"([^"]*)"|(\S+))/g)) {
    found[match[1]!] = match[2] ?? match[3]!;
  }
  return found;
}

/** The quoted exchanges of a Markdown page, with their markers. */
export function quotedReplies(markdown: string): Markdown {
  const lines = markdown.split('\n');
  const result: Markdown = { checked: [], unchecked: [], unmarked: [] };
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !lines[end]!.startsWith('```')) end++;
    const body = lines.slice(start + 1, end);
    i = end;
    if (!body[0]?.startsWith('> ')) continue;
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous--;
    const markerLine = lines[previous] ?? '';
    const unchecked = UNCHECKED.exec(markerLine);
    if (unchecked) {
      result.unchecked.push({ line: start + 1, why: unchecked[1]! });
      continue;
    }
    const marker = MARKER.exec(markerLine);
    if (!marker) {
      result.unmarked.push(start + 1);
      continue;
    }
    const options = attributes(marker[1] ?? '');
    const exchanges: Exchange[] = [];
    for (const line of body) {
      if (line.startsWith('> ')) exchanges.push({ sent: line.slice(2), reply: '' });
      else {
        const last = exchanges[exchanges.length - 1]!;
        last.reply = last.reply === '' ? line : `${last.reply}\n${line}`;
      }
    }
    result.checked.push({
      line: start + 1,
      config: options['config'] ?? 'none',
      after: options['after'] ? options['after'].split('|') : [],
      exchanges,
    });
  }
  return result;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const normalised = (text: string) => text.replace(UUID, '<id>').trimEnd();

let nextId = 1;

/** One SendMessage over JSON-RPC: the task and its reply text. */
async function send(
  harness: TestHarness,
  text: string,
  taskId?: string,
): Promise<{ taskId: string; text: string }> {
  const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'SendMessage',
      params: {
        message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], taskId },
      },
    }),
  });
  const body = (await response.json()) as {
    result?: { task: { id: string; status: { message?: { parts: Array<{ text?: string }> } } } };
    error?: { message: string };
  };
  if (!body.result) throw new Error(`${text}: ${body.error?.message ?? 'no result'}`);
  const task = body.result.task;
  const parts = task.status.message?.parts ?? [];
  const reply = parts
    .filter((part) => typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
  return { taskId: task.id, text: reply };
}

const doc = quotedReplies(readFileSync(DOC, 'utf8'));
const harnesses = new Map<string, TestHarness>();

beforeAll(async () => {
  for (const name of new Set(doc.checked.map((block) => block.config))) {
    const config = CONFIGS[name];
    if (!config) throw new Error(`docs/commands.md: unknown config=${name}`);
    harnesses.set(name, await startHarness({ config }));
  }
}, 60_000);

afterAll(async () => {
  for (const harness of harnesses.values()) await harness.stop();
});

describe('docs/commands.md', () => {
  it('marks every quoted exchange: checked, or unchecked with a reason', () => {
    expect(doc.unmarked).toEqual([]);
    expect(doc.checked.length).toBeGreaterThanOrEqual(15);
  });

  it.each(doc.checked.map((block) => [block.line, block] as const))(
    'the replies quoted at line %i are what the harness answers',
    async (_line, block) => {
      const harness = harnesses.get(block.config)!;
      let taskId: string | undefined;
      for (const text of block.after) taskId = (await send(harness, text, taskId)).taskId;
      const seen: Exchange[] = [];
      for (const { sent } of block.exchanges) {
        const answer = await send(harness, sent, taskId);
        taskId = answer.taskId;
        seen.push({ sent, reply: normalised(answer.text) });
      }
      expect(seen).toEqual(
        block.exchanges.map(({ sent, reply }) => ({ sent, reply: normalised(reply) })),
      );
    },
  );
});
