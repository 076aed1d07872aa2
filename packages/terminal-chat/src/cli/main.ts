import { Command } from 'commander';
import { chatCommand } from './chat-command.js';
import { sendCommand } from './send-command.js';

const program = new Command('a2a-chat')
  .description('A terminal chat for any A2A agent, with / completion for its commands')
  .version('0.1.0')
  .addCommand(chatCommand(), { isDefault: true })
  .addCommand(sendCommand());

await program.parseAsync(process.argv);
