/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import { PICKER_ROWS, type Choice, type ChoiceSet } from '../choices.js';
import { shortId } from '../views.js';
import { windowStart } from './CompletionList.js';

export interface PickerProps {
  set: ChoiceSet;
  /** The highlighted choice while the picker has the keys. */
  selected?: number;
}

/**
 * A reply's data as a list: `/model`'s models (picking sends `/model <id>`)
 * or `/tasks`'s tasks (picking opens the task). `●` marks the current one.
 */
export function Picker({ set, selected }: PickerProps) {
  const active = selected !== undefined;
  const { choices } = set;
  const start = active ? windowStart(choices.length, selected, PICKER_ROWS) : 0;
  const shown = choices.slice(start, start + PICKER_ROWS);
  const labelWidth = Math.min(
    48,
    Math.max(...shown.map((choice) => branchOf(choice).length + choice.label.length)),
  );
  return (
    <Box flexDirection="column">
      {shown.map((choice, offset) => {
        const highlighted = active && start + offset === selected;
        return (
          <Box key={choice.id}>
            <Text color="cyan">{highlighted ? '❯ ' : '  '}</Text>
            <Text color={choice.current ? 'green' : undefined}>{choice.current ? '● ' : '○ '}</Text>
            <Box width={labelWidth + 2} flexShrink={1}>
              <Text color={highlighted ? 'cyan' : undefined} wrap="truncate-end">
                {branchOf(choice)}
                {choice.label}
              </Text>
            </Box>
            <Text dimColor wrap="truncate-end">
              {set.kind === 'task' ? `${choice.detail} · ${shortId(choice.id)}` : choice.detail}
            </Text>
          </Box>
        );
      })}
      {choices.length > shown.length && (
        <Text dimColor>
          {'  '}
          {start + 1}–{start + shown.length} of {choices.length}
          {active ? ' · ↑↓ to see more' : ''}
        </Text>
      )}
      {active && (
        <Text dimColor>
          {'  ↑↓ choose · Enter '}
          {set.kind === 'model' ? 'switches to it' : 'opens it'}
          {' · Esc or typing goes back to the input'}
        </Text>
      )}
    </Box>
  );
}

/** A sub-task (`↳`) or a fork (`⑂`) hangs under the task above it, indented by depth. */
function branchOf(choice: Choice): string {
  const depth = choice.depth ?? 0;
  if (depth === 0) return '';
  return `${'  '.repeat(depth - 1)}${choice.fork ? '⑂' : '↳'} `;
}
