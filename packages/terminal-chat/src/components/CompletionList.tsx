/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import type { Completion } from 'a2a-commands/client';
import { sanitizeLine } from '../sanitize.js';

/** At most this many rows show; the window follows the highlighted entry. */
export const COMPLETION_ROWS = 8;

export interface CompletionListProps {
  items: readonly Completion[];
  selected: number;
  width: number;
}

/** First row shown so that `selected` stays visible. */
export function windowStart(count: number, selected: number, rows: number): number {
  if (count <= rows) return 0;
  return Math.min(Math.max(0, selected - Math.floor(rows / 2)), count - rows);
}

function Name({ completion, active }: { completion: Completion; active: boolean }) {
  const name = completion.command.name;
  const matched = new Set(completion.indexes);
  return (
    <Text color={active ? 'cyan' : undefined}>
      /
      {Array.from(name).map((char, index) => (
        <Text key={index} bold={matched.has(index)}>
          {char}
        </Text>
      ))}
    </Text>
  );
}

/** The `/` completion list: each command's name and description, ranked by `complete()`. */
export function CompletionList({ items, selected, width }: CompletionListProps) {
  if (items.length === 0) return null;
  const start = windowStart(items.length, selected, COMPLETION_ROWS);
  const shown = items.slice(start, start + COMPLETION_ROWS);
  const nameWidth = Math.min(24, Math.max(...shown.map((item) => item.command.name.length)) + 1);
  return (
    <Box flexDirection="column" flexShrink={0}>
      {shown.map((item, offset) => {
        const index = start + offset;
        const active = index === selected;
        return (
          <Box key={item.command.name} width={width}>
            <Text color="cyan">{active ? '❯ ' : '  '}</Text>
            <Box width={nameWidth + 2} flexShrink={0}>
              <Name completion={item} active={active} />
            </Box>
            <Text dimColor={!active} wrap="truncate-end">
              {sanitizeLine(item.command.description)}
            </Text>
          </Box>
        );
      })}
      {items.length > shown.length && (
        <Text dimColor>
          {'  '}
          {start + 1}–{start + shown.length} of {items.length} · ↑↓ to see more
        </Text>
      )}
    </Box>
  );
}
