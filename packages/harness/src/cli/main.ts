import { Command } from 'commander';
import { acpCommand } from 'a2a-acp/cli';
import { chatCommand, DEFAULT_AGENT_URL, sendCommand } from 'a2a-terminal-chat';
import { serveCommand } from './serve-command.js';

const program = new Command('a2a-harness')
  .description('An A2A 1.0 agent server with real models, durable tasks and slash commands')
  .version('0.1.0')
  .addCommand(serveCommand(), { isDefault: true })
  .addCommand(chatCommand({ program: 'a2a-harness' }))
  .addCommand(sendCommand({ program: 'a2a-harness' }))
  .addCommand(acpCommand({ program: 'a2a-harness', defaultUrl: DEFAULT_AGENT_URL }));

await program.parseAsync(process.argv);
