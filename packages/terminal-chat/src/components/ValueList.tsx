/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import type { ArgumentValues } from 'a2a-commands/client/completion';
import { sanitizeLine } from '../sanitize.js';
import { COMPLETION_ROWS, windowStart } from './CompletionList.js';

export interface ValueListProps {
  offered: ArgumentValues;
  selected: number;
  width: number;
}

/** The values for the argument being typed, each with its description; Tab takes the highlighted one. */
export function ValueList({ offered, selected, width }: ValueListProps) {
  const { values } = offered;
  const start = windowStart(values.length, selected, COMPLETION_ROWS);
  const shown = values.slice(start, start + COMPLETION_ROWS);
  // Values come from the agent: drawn as plain text, never as terminal control sequences.
  const valueWidth = Math.min(40, Math.max(...shown.map((item) => item.value.length)) + 1);
  return (
    <Box flexDirection="column" flexShrink={0}>
      {shown.map((item, offset) => {
        const active = start + offset === selected;
        return (
          <Box key={item.value} width={width}>
            <Text color="cyan">{active ? '❯ ' : '  '}</Text>
            <Box width={valueWidth + 2} flexShrink={0}>
              <Text color={active ? 'cyan' : undefined} wrap="truncate-end">
                {sanitizeLine(item.value)}
              </Text>
            </Box>
            <Text dimColor={!active} wrap="truncate-end">
              {sanitizeLine(item.description ?? '')}
            </Text>
          </Box>
        );
      })}
      <Text dimColor>
        {'  '}
        Tab takes {offered.argument.name}
        {values.length > shown.length || offered.hasMore ? ' · type to narrow' : ''}
      </Text>
    </Box>
  );
}
