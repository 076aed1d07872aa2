import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import {
  commandCompletionParamsSchema,
  completionRequestSchema,
  completionResponseSchema,
} from './completion.js';

/* Contract test: the shipped schemas are the ones in the spec text, and they compile strictly. */

const specPath = fileURLToPath(
  new URL('../../../../docs/spec/command-completion-v1.txt', import.meta.url),
);

/** The spec's JSON blocks that carry an `$id`: lines from a `{` to a `}` at column 0. */
function schemaBlocks(text: string): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  let current: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (current === undefined && line.startsWith('{')) current = [];
    if (current === undefined) continue;
    current.push(line);
    if (line.startsWith('}')) {
      const block = JSON.parse(current.join('\n')) as Record<string, unknown>;
      if ('$id' in block) blocks.push(block);
      current = undefined;
    }
  }
  return blocks;
}

it('ships exactly the three schemas of docs/spec/command-completion-v1.txt', () => {
  const blocks = schemaBlocks(readFileSync(specPath, 'utf8'));
  expect(blocks).toEqual([
    commandCompletionParamsSchema,
    completionRequestSchema,
    completionResponseSchema,
  ]);
});

it('the examples in the spec text validate against its schemas', () => {
  const ajv = new Ajv({ strict: true });
  const text = readFileSync(specPath, 'utf8');
  const examples = text
    .split(/\r?\n(?=\{)/)
    .slice(1)
    .map((chunk) => JSON.parse(chunk.slice(0, chunk.indexOf('\n}') + 2)) as Record<string, unknown>)
    .filter((block) => !('$id' in block));
  const [cardEntry, request, response] = examples;
  expect(ajv.validate(commandCompletionParamsSchema, cardEntry!['params'])).toBe(true);
  expect(ajv.validate(completionRequestSchema, request)).toBe(true);
  expect(ajv.validate(completionResponseSchema, response)).toBe(true);
});
