/** The library's example agent (B); `--commands N` registers N more commands, for the card-size figures. */
import { createExampleAgent } from 'a2a-commands/examples/agent';

const extra = Number(process.argv[process.argv.indexOf('--commands') + 1] ?? 0) || 0;
const server = (await import('node:http')).createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const { app, server: agent } = createExampleAgent(url);
  for (let i = 0; i < extra; i++) {
    agent.registry.register({
      name: `bench-command-${i}`,
      description: `Benchmark command number ${i}, with a description of ordinary length`,
      argument_hint: '[<argument>]',
      run: () => 'ok',
    });
  }
  server.on('request', app);
  console.log(JSON.stringify({ url }));
});
