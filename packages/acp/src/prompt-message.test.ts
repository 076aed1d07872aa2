import { describe, expect, it } from 'vitest';
import { availableCommands } from './available-commands.js';
import { promptMessage } from './prompt-message.js';

describe('promptMessage', () => {
  it('joins text blocks into one text, so a command stays a message whose only part is its text', () => {
    expect(
      promptMessage([
        { type: 'text', text: '/model' },
        { type: 'text', text: 'offline/echo' },
      ]),
    ).toEqual({ kind: 'text', text: '/model\noffline/echo' });
  });

  it('a prompt with other content becomes an ordinary message, one part per block', () => {
    const message = promptMessage([
      { type: 'text', text: '/help' },
      {
        type: 'resource_link',
        uri: 'file:///src/a.ts',
        name: 'a.ts',
        mimeType: 'text/x-typescript',
      },
      { type: 'resource', resource: { uri: 'file:///src/b.ts', text: 'let b = 1;' } },
      { type: 'image', data: Buffer.from('png').toString('base64'), mimeType: 'image/png' },
    ]);
    expect(message.kind).toBe('parts');
    const parts = message.kind === 'parts' ? message.parts : [];
    expect(parts.map((part) => [part.content?.$case, part.mediaType, part.filename])).toEqual([
      ['text', 'text/plain', ''],
      ['url', 'text/x-typescript', 'a.ts'],
      ['text', 'text/plain', 'b.ts'],
      ['raw', 'image/png', ''],
    ]);
    expect(parts[3]!.content?.value).toEqual(Buffer.from('png'));
  });
});

describe('availableCommands', () => {
  it('gives each non-empty argument hint as the input hint, and none for an empty one', () => {
    expect(
      availableCommands([
        { name: 'help', description: 'List the commands', argument_hint: '' },
        { name: 'model', description: 'Choose the model', argument_hint: '[<model>]' },
      ]),
    ).toEqual([
      { name: 'help', description: 'List the commands' },
      { name: 'model', description: 'Choose the model', input: { hint: '[<model>]' } },
    ]);
  });
});
