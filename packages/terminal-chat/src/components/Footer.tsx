/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { NoticeTone } from '../transcript.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function Spinner() {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % SPINNER.length), 120);
    return () => clearInterval(timer);
  }, []);
  return <Text color="cyan">{SPINNER[frame]} working </Text>;
}

/** What the spinner takes before the keys while a turn runs. */
const SPINNER_COLUMNS = '⠋ working '.length;

/**
 * The keys the footer documents, for the view and mode on screen, as many as
 * fit in `width` columns: the first ones matter most, so while a turn runs
 * the key that stops it comes first and is never cut.
 */
export function footerKeys(options: {
  mode: 'input' | 'picker';
  home: boolean;
  busy: boolean;
  /** What Ctrl+C does to a running turn: `/stop` keeps the task, CancelTask ends it. */
  stops: 'answer' | 'task';
  hasCommands: boolean;
  scrolled: boolean;
  linkKey: string;
  width: number;
}): string {
  if (options.mode === 'picker') return '↑↓ choose · Enter pick · Esc back to input';
  const keys = [];
  if (options.busy)
    keys.push(options.stops === 'answer' ? 'Ctrl+C stop answer' : 'Ctrl+C cancel task');
  keys.push('Enter send');
  if (options.hasCommands) keys.push('/ commands');
  keys.push(options.home ? `${options.linkKey} open sub-task` : `${options.linkKey} back to main`);
  keys.push(options.scrolled ? 'PgDn back down' : 'PgUp scroll');
  if (!options.busy) keys.push('Ctrl+C quit');
  const room = options.width - (options.busy ? SPINNER_COLUMNS : 0);
  let shown = keys[0]!;
  for (const key of keys.slice(1)) {
    const longer = `${shown} · ${key}`;
    if (longer.length > room) break;
    shown = longer;
  }
  return shown;
}

export interface FooterProps {
  keys: string;
  busy: boolean;
  status?: { text: string; tone: NoticeTone };
  width: number;
}

const TONE_COLOR: Record<NoticeTone, string> = { info: 'gray', warn: 'yellow', error: 'red' };

/** The status line: a passing message or the keys, with a spinner while a turn runs. */
export function Footer({ keys, busy, status, width }: FooterProps) {
  return (
    <Box width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        {busy ? <Spinner /> : ''}
        {status ? (
          <Text color={TONE_COLOR[status.tone]}>{status.text}</Text>
        ) : (
          <Text dimColor>{keys}</Text>
        )}
      </Text>
    </Box>
  );
}
