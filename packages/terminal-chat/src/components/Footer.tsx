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

/** The keys the footer documents, for the view and mode on screen. */
export function footerKeys(options: {
  mode: 'input' | 'picker';
  home: boolean;
  busy: boolean;
  hasCommands: boolean;
  scrolled: boolean;
  linkKey: string;
}): string {
  if (options.mode === 'picker') return '↑↓ choose · Enter pick · Esc back to input';
  const keys = ['Enter send'];
  if (options.hasCommands) keys.push('/ commands');
  keys.push(options.home ? `${options.linkKey} open sub-task` : `${options.linkKey} back to main`);
  keys.push(options.scrolled ? 'PgDn back down' : 'PgUp scroll');
  keys.push(options.busy ? 'Ctrl+C cancel turn' : 'Ctrl+C quit');
  return keys.join(' · ');
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
