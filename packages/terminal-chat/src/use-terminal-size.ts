import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  columns: number;
  rows: number;
}

function sizeOf(stream: { columns?: number; rows?: number }): TerminalSize {
  // A stream that is not a terminal has no size: assume the classic 80×24.
  return { columns: Math.max(20, stream.columns || 80), rows: Math.max(8, stream.rows || 24) };
}

/** The terminal's size, following resizes. */
export function useTerminalSize(): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
