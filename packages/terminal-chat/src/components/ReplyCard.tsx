/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import { choicesOf } from '../choices.js';
import { sanitizeLine } from '../sanitize.js';
import type { Entry } from '../transcript.js';
import { Picker } from './Picker.js';

type Reply = Extract<Entry, { kind: 'reply' }>;

export interface ReplyCardProps {
  entry: Reply;
  /** The highlighted choice when this reply's picker has the keys. */
  selected?: number;
  /** The key that follows the newest sub-task link, named on that link; absent on older links. */
  linkKey?: string;
}

/**
 * What a reply says before its list: its first line. The rest of a `/model` or
 * `/tasks` text is the same list in words, which the picker shows instead.
 */
function summary(text: string): string {
  const newline = text.indexOf('\n');
  return newline === -1 ? text : text.slice(0, newline);
}

/**
 * A command reply, drawn apart from model output: a bar down the left, tagged
 * with the command's name. `/model` and `/tasks` data become a list to pick
 * from, and a `task_ref` becomes a link to the sub-task.
 */
export function ReplyCard({ entry, selected, linkKey }: ReplyCardProps) {
  const set = choicesOf(entry);
  const text = set ? summary(entry.text) : entry.text;
  return (
    <Box
      flexDirection="column"
      borderStyle="bold"
      borderColor="magenta"
      borderTop={false}
      borderRight={false}
      borderBottom={false}
      paddingLeft={1}
    >
      <Text color="magenta" bold>
        /{entry.command}
        <Text dimColor bold={false}>
          {' '}
          · command reply
        </Text>
      </Text>
      {text !== '' && <Text>{text}</Text>}
      {set && <Picker set={set} selected={selected} />}
      {entry.taskRef && (
        <Text color="blue">
          {'↳ sub-task '}
          <Text underline>{sanitizeLine(entry.taskRef)}</Text>
          {linkKey ? <Text dimColor>{` · ${linkKey} opens it`}</Text> : ''}
        </Text>
      )}
    </Box>
  );
}
