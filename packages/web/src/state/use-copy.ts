import { useEffect, useRef, useState } from 'react';

/** How long a button says "Copied" before it offers to copy again, in ms. */
const COPIED_FOR = 2000;

export type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Copies text to the clipboard, and says how that went for a while. The
 * clipboard is missing on a plain-http page other than localhost: `failed`.
 */
export function useCopy(): { state: CopyState; copy: (text: string) => Promise<void> } {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (text: string) => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), COPIED_FOR);
  };
  return { state, copy };
}
