// An A2A agent on @a2a-js/sdk whose card offers /help and /echo. Run: npm run example
import type { AgentCard } from '@a2a-js/sdk';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { CommandRegistry, type CommandSpec } from 'a2a-commands';
import { createCommandsServer } from 'a2a-commands/server';
import { commandsRoutes } from 'a2a-commands/express';
import { echoExecutor } from './echo-executor.js';

const helpLine = (c: CommandSpec) =>
  `/${c.name} ${c.argument_hint}`.trimEnd() + `: ${c.description}`;

export function createExampleAgent(baseUrl: string, executor: AgentExecutor = echoExecutor()) {
  const registry = new CommandRegistry();
  registry.register({
    name: 'help',
    description: 'List the commands',
    run: () => registry.specs().map(helpLine).join('\n'),
  });
  registry.register({
    name: 'echo',
    description: 'Repeat the arguments',
    argument_hint: '<text>',
    // The hint makes the argument required: the library refuses a bare /echo before this runs.
    run: ({ args }) => ({ text: args, data: { echoed: args } }),
  });
  const protocolVersion = '1.0';
  const agentCard: AgentCard = {
    name: 'Example commands agent',
    description: 'Echoes messages; answers /help and /echo.',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion },
      { url: `${baseUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion },
    ],
    capabilities: { streaming: true, extensions: [] },
    ...{
      provider: undefined,
      skills: [],
      signatures: [],
      securitySchemes: {},
      securityRequirements: [],
    },
    ...{ defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'] },
  };
  const server = createCommandsServer({
    agentCard,
    executor,
    registry,
  });
  // An open agent, by choice: an agent with authentication passes its own user builder.
  const app = express().use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication }));
  return { app, server };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.PORT ?? 4000);
  createExampleAgent(`http://127.0.0.1:${port}`).app.listen(port, '127.0.0.1', () => {
    console.log(`Example agent on http://127.0.0.1:${port}`);
  });
}
