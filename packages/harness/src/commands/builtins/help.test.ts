import { describe, expect, it } from 'vitest';
import { helpCommand } from './help.js';
import { fakeServices, run } from './test-context.js';

describe('/help', () => {
  it('lists every command in registry order, custom ones too, aligned', async () => {
    const services = fakeServices();
    services.registry.register({
      name: 'review',
      description: 'Review a file',
      argument_hint: '<file> [focus]',
      run: () => 'ok',
    });
    const { result } = await run(helpCommand, '', { services });
    const names = services.registry.list().map((c) => c.name);
    expect(names.at(-1)).toBe('review');
    expect(result.data).toEqual({ commands: services.registry.specs() });
    const listed = (result.data as { commands: object[] }).commands;
    for (const spec of listed) {
      expect(Object.keys(spec)).toEqual(['name', 'description', 'argument_hint']);
    }

    const lines = result.text.split('\n');
    const commandLines = lines.filter((line) => line.startsWith('/'));
    expect(commandLines.map((line) => line.split(' ')[0])).toEqual(names.map((n) => `/${n}`));
    expect(commandLines[0]).toContain('/help [<command>]');
    expect(result.text).toContain('/review <file> [focus]');
    const columns = services.registry.list().map((c, i) => commandLines[i]?.indexOf(c.description));
    expect(new Set(columns).size).toBe(1);
  });

  it('lists a command registered after an earlier /help, and no longer one removed since', async () => {
    const services = fakeServices();
    const before = (await run(helpCommand, '', { services })).result;
    services.registry.register({ name: 'late', description: 'Came later', run: () => 'ok' });
    const after = (await run(helpCommand, '', { services })).result;
    services.registry.unregister('late');
    const removed = (await run(helpCommand, '', { services })).result;

    expect(before.text).not.toContain('/late');
    expect(after.text).toContain('/late');
    expect((after.data as { commands: object[] }).commands.at(-1)).toEqual({
      name: 'late',
      description: 'Came later',
      argument_hint: '',
    });
    expect(removed.text).toBe(before.text);
  });

  it('explains one command, saying when an argument is required', async () => {
    const services = fakeServices();
    const spawn = (await run(helpCommand, 'spawn', { services })).result;
    expect(spawn.text.split('\n')[0]).toBe('/spawn <prompt>');
    expect(spawn.text).toContain('An argument is required: <prompt>.');
    expect(spawn.data).toEqual({ commands: [services.registry.specs()[7]] });

    const model = (await run(helpCommand, '/model', { services })).result;
    expect(model.text).toContain("Show or choose this task's model");
    expect(model.text).toContain('optional');
    expect(model.text).not.toContain('required');

    const clear = (await run(helpCommand, 'clear', { services })).result;
    expect(clear.text).toContain('It takes no arguments.');
  });

  it('answers an unknown name by quoting it and naming close commands', async () => {
    const services = fakeServices();
    const typo = (await run(helpCommand, 'modle', { services })).result;
    expect(typo.text).toContain('"modle"');
    expect(typo.text).toContain('/model');
    expect(typo.data).toMatchObject({ error: 'unknown_command', command: 'modle' });

    const prefix = (await run(helpCommand, 'sp', { services })).result;
    expect(prefix.text).toContain('Did you mean /spawn');

    const nothing = (await run(helpCommand, 'xyzzy', { services })).result;
    expect(nothing.text).toContain('"xyzzy"');
    expect(nothing.text).not.toContain('Did you mean');
    expect(nothing.text).toContain('/help');
  });
});
