import { Role, type Message } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { replyLinkOf } from './messages-table.js';

const message = (messageId: string, role: Role): Message => ({
  messageId,
  taskId: 't',
  contextId: 'c',
  role,
  parts: [],
  metadata: { command: 'help' },
  extensions: [],
  referenceTaskIds: [],
});

const command = message('command', Role.ROLE_USER);
const reply = message('reply', Role.ROLE_AGENT);

describe("a command's reply link", () => {
  it('names the command stored just before the reply, as a retry reads it', () => {
    expect(replyLinkOf([command, reply], reply)).toEqual({
      commandId: 'command',
      replyId: 'reply',
    });
  });

  it('is not made for a reply stored before its command, which a retry would not find', () => {
    expect(replyLinkOf([reply, command], reply)).toBeUndefined();
  });

  it('is not made for a lone message, a longer history, or a status message stored elsewhere', () => {
    expect(replyLinkOf([reply], reply)).toBeUndefined();
    expect(
      replyLinkOf([message('earlier', Role.ROLE_USER), command, reply], reply),
    ).toBeUndefined();
    expect(replyLinkOf([command, message('other', Role.ROLE_AGENT)], reply)).toBeUndefined();
    expect(replyLinkOf([command, reply], undefined)).toBeUndefined();
  });
});
