/**
 * What the README's snippets `declare` as the adopter's own, made real for
 * running them: an agent card and executor for the port the snippet serves
 * on, a message, and an SDK client of a running agent.
 */
import type { AgentCard, Message } from '@a2a-js/sdk';
import type { AgentExecutor, ServerCallContext } from '@a2a-js/sdk/server';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { newMessage, textPart, USER } from 'a2a-commands';
import { echoExecutor } from '../../examples/echo-executor.js';

const port = Number(process.env['SNIPPET_PORT']);
const agentUrl = process.env['SNIPPET_AGENT_URL'] ?? '';

export const agentCard: AgentCard = {
  name: 'snippet',
  description: 'A README snippet, running',
  version: '1.0.0',
  supportedInterfaces: [
    {
      url: `http://127.0.0.1:${port}/a2a/jsonrpc`,
      protocolBinding: 'JSONRPC',
      tenant: '',
      protocolVersion: '1.0',
    },
  ],
  capabilities: { streaming: true, extensions: [] },
  provider: undefined,
  skills: [],
  signatures: [],
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};
export const baseCard: AgentCard = agentCard;
export const executor: AgentExecutor = echoExecutor();
export const message: Message = newMessage({ role: USER, parts: [textPart('/help me')] });

export async function listMyTasks(_context: ServerCallContext): Promise<{ value: string }[]> {
  return [{ value: 'task-1' }];
}

export const client: Client | undefined = agentUrl
  ? await new ClientFactory().createFromUrl(agentUrl)
  : undefined;
