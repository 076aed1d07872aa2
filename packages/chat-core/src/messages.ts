import type { Message, Part } from '@a2a-js/sdk';

/*
 * What the core reads from messages and artifacts besides command replies
 * (a2a-commands' client reads those). Everything tolerates odd input.
 */

/** Role agent, as the SDK's enum (2) or the wire name. */
export function isAgentMessage(message: Pick<Message, 'role'> | undefined): boolean {
  const role = message?.role as unknown;
  return role === 2 || role === 'ROLE_AGENT';
}

/** Role user, as the SDK's enum (1) or the wire name. */
export function isUserMessage(message: Pick<Message, 'role'> | undefined): boolean {
  const role = message?.role as unknown;
  return role === 1 || role === 'ROLE_USER';
}

/** The text parts of a message or artifact, joined with `separator`. */
export function textOf(holder: { parts?: Part[] } | undefined, separator = '\n'): string {
  const texts: string[] = [];
  for (const part of holder?.parts ?? []) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
  }
  return texts.join(separator);
}

/**
 * A user message that was a command: the library tags the stored command
 * message with `metadata.command` (SEMANTICS §3), as it does the reply.
 */
export function userCommandOf(message: Pick<Message, 'role' | 'metadata'>): string | undefined {
  if (isAgentMessage(message)) return undefined;
  const command = (message.metadata as Record<string, unknown> | undefined)?.['command'];
  return typeof command === 'string' && command !== '' ? command : undefined;
}
