/** @jsxRuntime automatic */
import { Box, measureElement, Text, type DOMElement } from 'ink';
import { useEffect, useRef } from 'react';
import type { Entry } from '../transcript.js';
import { latestTaskRef } from '../transcript.js';
import { visibleTail } from '../windowing.js';
import { EntryView } from './EntryView.js';

export interface TranscriptProps {
  entries: readonly Entry[];
  /** Lines scrolled back from the bottom. */
  scroll: number;
  /** The terminal's size: what can be on screen. */
  width: number;
  rows: number;
  /** The reply whose picker has the keys, and its highlighted choice. */
  picker?: { key: string; selected: number };
  /** The key that follows the newest sub-task link. */
  linkKey?: string;
  /** Shown while there is nothing else. */
  welcome: string;
  /** How far back the transcript can scroll, measured after each draw. */
  onMeasure?: (maxScroll: number) => void;
}

/**
 * The transcript fills the space the input leaves and shows its bottom, or
 * `scroll` lines above it: the frame never grows past the terminal, so ink
 * redraws in place however long the conversation or a reply gets.
 */
export function Transcript({
  entries,
  scroll,
  width,
  rows,
  picker,
  linkKey,
  welcome,
  onMeasure,
}: TranscriptProps) {
  const viewport = useRef<DOMElement>(null);
  const content = useRef<DOMElement>(null);
  const maxScroll = useRef(0);
  useEffect(() => {
    if (!viewport.current || !content.current) return;
    const max = Math.max(
      0,
      measureElement(content.current).height - measureElement(viewport.current).height,
    );
    maxScroll.current = max;
    onMeasure?.(max);
  });
  const offset = Math.min(scroll, maxScroll.current);
  const link = latestTaskRef(entries);
  // What fits on screen, what is scrolled past, and a screenful more to scroll into.
  const shown = visibleTail(entries, width, rows * 2 + scroll);
  return (
    <Box
      ref={viewport}
      flexDirection="column"
      flexGrow={1}
      flexShrink={1}
      minHeight={0}
      overflow="hidden"
      justifyContent="flex-end"
    >
      <Box ref={content} flexDirection="column" flexShrink={0} marginBottom={-offset}>
        {entries.length === 0 && <Text dimColor>{welcome}</Text>}
        {shown.map((entry) => (
          <Box key={entry.key} marginTop={1} flexDirection="column">
            <EntryView
              entry={entry}
              selected={picker?.key === entry.key ? picker.selected : undefined}
              linkKey={entry.kind === 'reply' && entry.taskRef === link ? linkKey : undefined}
            />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
