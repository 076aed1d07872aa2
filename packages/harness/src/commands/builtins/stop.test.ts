import { CommandError } from 'a2a-commands';
import { describe, expect, it } from 'vitest';
import { stopCommand } from './stop.js';
import { fakeServices, run } from './test-context.js';

describe('/stop', () => {
  it('stops the running turn of this task, and says what happens next', async () => {
    const stopped: string[] = [];
    const services = fakeServices({
      queued: 1,
      stop: (taskId) => (stopped.push(taskId), true),
    });
    const { result, fake } = await run(stopCommand, '', { services });
    expect(stopped).toEqual([fake.context.task.id]);
    expect(result.text).toBe(
      "Stopped the answer in progress. What the model wrote so far stays in this task's history. 1 queued message runs next.",
    );
    expect(result.data).toEqual({ stopped: true, queued: 1 });
  });

  it('says so when no turn runs, and changes nothing', async () => {
    const { result, fake } = await run(stopCommand, '', { services: fakeServices() });
    expect(result.text).toBe('No answer is in progress on this task, so there is nothing to stop.');
    expect(result.data).toEqual({ stopped: false, queued: 0 });
    expect(fake.updates).toBe(0);
  });

  it('refuses arguments, quoting them, without stopping anything', async () => {
    const stopped: string[] = [];
    const services = fakeServices({ stop: (taskId) => (stopped.push(taskId), true) });
    await expect(run(stopCommand, 'now please', { services })).rejects.toThrow(CommandError);
    await expect(run(stopCommand, 'now please', { services })).rejects.toThrow('"now please"');
    expect(stopped).toEqual([]);
  });
});
