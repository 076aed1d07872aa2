import { Endpoint } from '../lib/load.js';

/**
 * Keeps `tasks` model turns streaming on as many tasks until stopped: each
 * worker sends a streaming message, reads the whole stream, and sends the next.
 */
export function streamingLoad(url: string, taskIds: string[]): { stop(): Promise<number> } {
  const endpoint = new Endpoint(`${url}/a2a/jsonrpc`, taskIds.length + 8);
  let running = true;
  let turns = 0;
  const workers = taskIds.map(async (taskId) => {
    while (running) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            taskId,
            parts: [{ text: 'tell me a story about load' }],
          },
        },
      });
      const { text } = await endpoint.request(body);
      if (text.includes('TASK_STATE_INPUT_REQUIRED')) turns++;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      endpoint.close();
      return turns;
    },
  };
}
