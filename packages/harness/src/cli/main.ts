import { Command } from 'commander';
import { chatCommand } from './chat-command.js';
import { sendCommand } from './send-command.js';
import { serveCommand } from './serve-command.js';

const program = new Command('a2a-harness')
  .description('An A2A 1.0 agent server with real models, durable tasks and slash commands')
  .version('0.1.0')
  .addCommand(serveCommand(), { isDefault: true })
  .addCommand(chatCommand())
  .addCommand(sendCommand());

await program.parseAsync(process.argv);
