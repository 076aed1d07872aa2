/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import type { Entry, NoticeTone } from '../transcript.js';
import { ReplyCard } from './ReplyCard.js';

const TONE_COLOR: Record<NoticeTone, string> = { info: 'gray', warn: 'yellow', error: 'red' };

export interface EntryViewProps {
  entry: Entry;
  selected?: number;
  linkKey?: string;
}

/** One transcript entry: what the user sent, the model's answer, a command reply, a note, or a divider. */
export function EntryView({ entry, selected, linkKey }: EntryViewProps) {
  switch (entry.kind) {
    case 'user':
      return (
        <Box>
          <Text color="cyan" bold>
            {'› '}
          </Text>
          <Box flexShrink={1}>
            <Text bold>{entry.text}</Text>
          </Box>
        </Box>
      );
    case 'agent':
      // Joined mid-answer with no answer so far: a tail alone would mislead.
      if (entry.partial && entry.streaming) {
        return <Text color="gray">(answer in progress…)</Text>;
      }
      return (
        <Text>
          {entry.partial ? '… ' : ''}
          {entry.text}
          {entry.streaming ? <Text color="gray">▍</Text> : ''}
          {entry.stopped ? <Text color="yellow"> [stopped]</Text> : ''}
        </Text>
      );
    case 'reply':
      return <ReplyCard entry={entry} selected={selected} linkKey={linkKey} />;
    case 'note':
      return <Text color={TONE_COLOR[entry.tone]}>• {entry.text}</Text>;
    case 'divider':
      return <Text color="gray">──── {entry.text} ────</Text>;
  }
}
