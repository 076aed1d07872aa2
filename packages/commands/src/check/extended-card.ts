/* eslint-disable @typescript-eslint/no-explicit-any -- the checker reads an unknown agent's raw wire JSON */
import { readCommands } from '../client/card.js';
import type { CommandSpec } from '../spec.js';
import {
  CheckSkipped,
  cardEntryProblems,
  expectReply,
  fail,
  type Check,
  type CheckEnv,
} from './checks.js';
import { userMessage } from './wire.js';

const same = (a: CommandSpec, b: CommandSpec) =>
  a.description === b.description && (a.argument_hint ?? '') === (b.argument_hint ?? '');

/**
 * SEMANTICS §9: with a key, the extended card lists the caller's commands.
 * It must list every public command the same way (public ⊆ extended), and
 * each command only it lists must answer as a command. A command whose hint
 * requires arguments is sent bare: the refusal is a tagged reply too, and
 * nothing runs.
 */
export const EXTENDED_CARD_CHECK: Check = {
  id: 'extended-card',
  title: "the extended card (with --api-key): the caller's commands, the public ones included",
  async run(env: CheckEnv) {
    if (env.card?.capabilities?.extendedAgentCard !== true) {
      throw new CheckSkipped('the card does not offer an extended card');
    }
    if (!env.keyed) throw new CheckSkipped('needs --api-key: the extended card is read with a key');
    const extended = withDefaults(await env.wire.extendedCard());
    const problems = cardEntryProblems(extended);
    if (problems.length > 0) fail(`the extended card's entry: ${problems.join('; ')}`);
    const mine = readCommands(extended);
    const byName = new Map(mine.map((command) => [command.name, command]));
    const publicCommands = readCommands(env.card);
    const missing = publicCommands.filter((command) => !byName.has(command.name));
    if (missing.length > 0) {
      fail(
        `public commands the extended card leaves out: ${missing.map((c) => `/${c.name}`).join(', ')}`,
      );
    }
    const changed = publicCommands.filter((command) => !same(command, byName.get(command.name)!));
    if (changed.length > 0) {
      fail(
        `listed differently than on the public card: ${changed.map((c) => `/${c.name}`).join(', ')}`,
      );
    }
    const own = mine.filter((command) => !publicCommands.some((p) => p.name === command.name));
    for (const command of own) {
      const { task } = await env.wire.send(userMessage(`/${command.name}`));
      expectReply(task, command.name, `/${command.name} (extended card only)`);
    }
    return `${mine.length} commands, ${own.length} beyond the public card${
      own.length > 0 ? ` (${own.map((c) => `/${c.name}`).join(', ')}), each answered` : ''
    }`;
  },
};

/**
 * A card answered by a binding (not the well-known path) comes through the
 * SDK's protobuf JSON, which leaves out fields at their default: an entry's
 * `required: false` arrives absent, and means false.
 */
function withDefaults(card: any): any {
  const extensions: unknown = card?.capabilities?.extensions;
  if (!Array.isArray(extensions)) return card;
  return {
    ...card,
    capabilities: {
      ...card.capabilities,
      extensions: extensions.map((ext) =>
        ext && typeof ext === 'object' && !('required' in ext) ? { ...ext, required: false } : ext,
      ),
    },
  };
}
