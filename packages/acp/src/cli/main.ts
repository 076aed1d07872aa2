import { acpCommand } from './acp-command.js';

const program = acpCommand()
  .name('a2a-acp')
  .version('0.1.0')
  .description(
    'An Agent Client Protocol (ACP) bridge for any A2A agent: its slash commands in your editor',
  );

await program.parseAsync(process.argv);
