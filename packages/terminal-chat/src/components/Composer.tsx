/** @jsxRuntime automatic */
import { Box, Text, useInput } from 'ink';
import type { CommandSpec } from 'a2a-commands/client';
import type { ArgumentValues } from 'a2a-commands/client/completion';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import {
  composerKey,
  completionsOf,
  INITIAL_COMPOSER,
  valuesOf,
  withLine,
  type ComposerState,
} from '../composer-state.js';
import { remember } from '../input-history.js';
import { inputWindow } from '../input-window.js';
import { EMPTY_LINE, insert, type Line } from '../line-editor.js';
import { CompletionList } from './CompletionList.js';
import { GhostHint } from './GhostHint.js';
import { ValueList } from './ValueList.js';

/** The `› ` prompt before the input. */
const PROMPT_COLUMNS = 2;

/** How long typing must pause before the agent is asked for values, in ms. */
const VALUES_PAUSE_MS = 80;

/** What the App may do to the composer from outside. */
export interface ComposerHandle {
  /** Types `text` at the cursor (a key that reached a picker first). */
  insert(text: string): void;
  clear(): void;
  isEmpty(): boolean;
}

export interface ComposerProps {
  commands: readonly CommandSpec[];
  /** Sends the text; false when it was refused, so the draft stays. */
  onSubmit: (text: string) => boolean;
  /** Esc with no list to close (the App stops a running answer). */
  onEscape?: () => void;
  /** False while a picker has the keys: the line shows without a cursor. */
  isActive: boolean;
  width: number;
  /** The most rows the input itself may take (a long paste shows around the cursor). */
  maxRows: number;
  placeholder: string;
  /** Values for a command's argument (the command completion extension); none when absent. */
  argumentValues?: (input: string, signal: AbortSignal) => Promise<ArgumentValues | undefined>;
  ref?: Ref<ComposerHandle>;
}

function InputLine({ line, active }: { line: Line; active: boolean }) {
  const { text, cursor } = line;
  if (!active) return <Text>{text}</Text>;
  const at = text.codePointAt(cursor);
  const char = at === undefined ? '' : String.fromCodePoint(at);
  const after = text.slice(cursor + char.length);
  return (
    <Text>
      {text.slice(0, cursor)}
      <Text inverse>{char === '' || char === '\n' ? ' ' : char}</Text>
      {char === '\n' ? '\n' : ''}
      {after}
    </Text>
  );
}

/** The input line: editing, history, `/` completion, the ghost hint and the required-argument rule. */
export function Composer({
  commands,
  onSubmit,
  onEscape,
  isActive,
  width,
  maxRows,
  placeholder,
  argumentValues,
  ref,
}: ComposerProps) {
  const [state, setState] = useState<ComposerState>(INITIAL_COMPOSER);
  // Keys can come faster than renders (a paste, a fast typist): each one sees the last.
  const latest = useRef(state);
  // Updated as it renders: a key right after a picker opens or closes goes to the right place.
  const active = useRef(isActive);
  active.current = isActive;
  const set = (next: ComposerState) => {
    latest.current = next;
    setState(next);
  };

  useImperativeHandle(ref, () => ({
    insert: (text) => set(withLine(latest.current, insert(latest.current.line, text))),
    clear: () => set(withLine(latest.current, EMPTY_LINE)),
    isEmpty: () => latest.current.line.text === '',
  }));

  // Once typing pauses after a command's name, ask for the argument's values.
  const text = state.line.text;
  useEffect(() => {
    if (!argumentValues || !text.startsWith('/')) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      argumentValues(text, abort.signal).then(
        (offered) => {
          // Only for exactly what is still typed; a failed request offers nothing.
          if (abort.signal.aborted || !offered || latest.current.line.text !== text) return;
          set({ ...latest.current, values: { input: text, offered } });
        },
        () => undefined,
      );
    }, VALUES_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, argumentValues]);

  useInput((input, key) => {
    if (!active.current) return;
    const result = composerKey(latest.current, input, key, commands);
    let next = result.state;
    if (result.submit !== undefined && onSubmit(result.submit)) {
      next = { ...withLine(next, EMPTY_LINE), history: remember(next.history, result.submit) };
    }
    set(next);
    if (result.escaped) onEscape?.();
  });

  const items = completionsOf(state, commands);
  const offered = valuesOf(state, commands);
  const empty = text === '';
  const { cursor } = state.line;
  const shown = inputWindow(text, cursor, width - PROMPT_COLUMNS, maxRows);
  const visible = { text: text.slice(shown.start, shown.end), cursor: cursor - shown.start };
  return (
    <Box flexDirection="column" flexShrink={0} width={width}>
      <Box>
        {/* ink measures `› ` as one column (its trailing space is trimmed): fixed widths keep
            the input inside the terminal. */}
        <Box width={PROMPT_COLUMNS} flexShrink={0}>
          <Text color="cyan" bold>
            ›
          </Text>
        </Box>
        <Box width={width - PROMPT_COLUMNS} flexShrink={0} flexDirection="column">
          {shown.hiddenBefore && <Text dimColor>…</Text>}
          <Text>
            <InputLine line={visible} active={isActive} />
            {empty ? (
              <Text dimColor>{placeholder}</Text>
            ) : (
              <GhostHint text={state.line.text} commands={commands} />
            )}
          </Text>
          {shown.hiddenAfter && <Text dimColor>…</Text>}
        </Box>
      </Box>
      {items.length > 0 && <CompletionList items={items} selected={state.selected} width={width} />}
      {offered && <ValueList offered={offered} selected={state.selected} width={width} />}
      {state.message && (
        <Text color="yellow" wrap="wrap">
          {'  '}
          {state.message}
        </Text>
      )}
    </Box>
  );
}
