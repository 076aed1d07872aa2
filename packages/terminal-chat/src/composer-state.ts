import type { Key } from 'ink';
import {
  argumentHintState,
  complete,
  type CommandSpec,
  type Completion,
} from 'a2a-commands/client';
import { takeValue, type ArgumentValues } from 'a2a-commands/client/completion';
import { enterWithList, type OpenList } from 'a2a-chat-core';
import { EMPTY_HISTORY, newer, older, type InputHistory } from './input-history.js';
import { pastedText } from './key-filter.js';
import * as edit from './line-editor.js';
import { EMPTY_LINE, lineOf, type Line } from './line-editor.js';

/** Everything the composer holds between keys. */
export interface ComposerState {
  line: Line;
  history: InputHistory;
  /** The highlighted completion. */
  selected: number;
  /** The arrows moved the highlight since the text last changed (the Enter rule reads it). */
  moved?: boolean;
  /** Esc closed the completion list; it opens again when the text changes. */
  dismissed: boolean;
  /** Why Enter did not send. */
  message?: string;
  /** The values the agent offered for the argument being typed in `input`. */
  values?: { input: string; offered: ArgumentValues };
}

export const INITIAL_COMPOSER: ComposerState = {
  line: EMPTY_LINE,
  history: EMPTY_HISTORY,
  selected: 0,
  dismissed: false,
};

/** What a key did: the new state, and the text to send when Enter sends. */
export interface KeyResult {
  state: ComposerState;
  submit?: string;
  /** Esc found no list to close: it is the App's (to stop a running answer). */
  escaped?: boolean;
}

/** The open completion list for this state: `[]` when closed. */
export function completionsOf(
  state: ComposerState,
  commands: readonly CommandSpec[],
): Completion[] {
  if (state.dismissed || commands.length === 0 || !state.line.text.startsWith('/')) return [];
  return complete(state.line.text, commands);
}

/** The open list of argument values: shown while the names list is closed, for exactly this text. */
export function valuesOf(
  state: ComposerState,
  commands: readonly CommandSpec[],
): ArgumentValues | undefined {
  const { values } = state;
  if (state.dismissed || !values || values.input !== state.line.text) return undefined;
  if (values.offered.values.length === 0 || completionsOf(state, commands).length > 0) {
    return undefined;
  }
  return values.offered;
}

/** Up and Down move, Tab takes the value, Esc closes; Enter follows the chats' Enter rule. */
function valuesKey(
  state: ComposerState,
  key: Key,
  offered: ArgumentValues,
  commands: readonly CommandSpec[],
): KeyResult | undefined {
  const count = offered.values.length;
  const at = Math.min(state.selected, count - 1);
  if (key.upArrow) return { state: { ...state, selected: (at - 1 + count) % count, moved: true } };
  if (key.downArrow) return { state: { ...state, selected: (at + 1) % count, moved: true } };
  if (key.escape) return { state: { ...state, dismissed: true } };
  if (key.tab) {
    const text = takeValue(state.line.text, offered.position, offered.values[at]!.value);
    return { state: withLine(state, lineOf(text)) };
  }
  if (key.return && !key.meta) {
    const list: OpenList = {
      kind: 'values',
      offered,
      highlighted: at,
      moved: state.moved === true,
    };
    return enterOnList(state, list, commands);
  }
  return undefined;
}

/** Enter with a list open, by the rule both chats share (`a2a-chat-core`'s `enterWithList`). */
function enterOnList(
  state: ComposerState,
  list: OpenList,
  commands: readonly CommandSpec[],
): KeyResult {
  const outcome = enterWithList(state.line.text, list, commands);
  switch (outcome.kind) {
    case 'as-typed':
      return enter(state, commands);
    case 'fill':
      return { state: withLine(state, lineOf(outcome.text)) };
    case 'send':
      return { state: withLine(state, lineOf(outcome.text)), submit: outcome.text };
  }
}

/** The `<...>` parts of a hint outside every `[...]`: what must be typed. */
export function requiredParts(hint: string): string {
  const parts: string[] = [];
  let depth = 0;
  for (let i = 0; i < hint.length; i++) {
    const char = hint[i];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '<' && depth === 0) {
      const close = hint.indexOf('>', i + 1);
      if (close === -1) break;
      parts.push(hint.slice(i, close + 1));
      i = close;
    }
  }
  return parts.join(' ');
}

/** A new line of text: the list reopens at its top and the old message goes. */
export function withLine(state: ComposerState, line: Line): ComposerState {
  if (line.text === state.line.text) return { ...state, line };
  return { ...state, line, selected: 0, moved: false, dismissed: false, message: undefined };
}

function take(state: ComposerState, completion: Completion): ComposerState {
  return withLine(state, lineOf(`/${completion.command.name} `));
}

/**
 * Enter with the list closed. SEMANTICS-level rule of the chat: a command whose
 * hint has a required `<...>` argument is not sent without one; the cursor
 * stays after the name and the message says what is missing.
 */
function enter(state: ComposerState, commands: readonly CommandSpec[]): KeyResult {
  const text = state.line.text;
  const hint = argumentHintState(text, commands);
  if (hint?.requiredMissing) {
    const typed = /\s$/.test(text) ? text : `${text} `;
    const missing = requiredParts(hint.hint);
    return {
      state: {
        ...withLine(state, lineOf(typed)),
        message: `/${hint.command.name} needs ${missing}: type it after the name, then press Enter.`,
      },
    };
  }
  if (text.trim() === '') return { state };
  return { state, submit: text };
}

function listKey(
  state: ComposerState,
  key: Key,
  items: Completion[],
  commands: readonly CommandSpec[],
): KeyResult | undefined {
  const count = items.length;
  if (key.upArrow) return { state: { ...state, selected: (state.selected - 1 + count) % count } };
  if (key.downArrow) return { state: { ...state, selected: (state.selected + 1) % count } };
  if (key.escape) return { state: { ...state, dismissed: true } };
  const highlighted = Math.min(state.selected, count - 1);
  if (key.tab) return { state: take(state, items[highlighted]!) };
  if (key.return)
    return enterOnList(state, { kind: 'commands', entries: items, highlighted }, commands);
  return undefined;
}

function typedWithTabs(
  state: ComposerState,
  input: string,
  key: Key,
  commands: readonly CommandSpec[],
): ComposerState {
  const [first, ...rest] = input.split('\t');
  let next = first === '' ? state : composerKey(state, first!, key, commands).state;
  for (const typed of rest) {
    const listed =
      completionsOf(next, commands).length > 0 || valuesOf(next, commands) !== undefined;
    next = listed
      ? composerKey(next, '\t', { ...key, tab: true }, commands).state
      : withLine(next, edit.insert(next.line, '\t'));
    if (typed !== '') next = composerKey(next, typed, key, commands).state;
  }
  return next;
}

/** Keys the App handles: the composer leaves them alone. */
export function isGlobalKey(input: string, key: Key): boolean {
  return (key.ctrl && ['c', 't', 'd', 'z'].includes(input)) || key.pageUp || key.pageDown;
}

/** One key (or one pasted chunk) in the composer. */
export function composerKey(
  state: ComposerState,
  input: string,
  key: Key,
  commands: readonly CommandSpec[],
): KeyResult {
  if (isGlobalKey(input, key)) return { state };
  // What the terminal marked as pasted is text, to be read over before sending.
  const pasted = pastedText(input);
  if (pasted !== undefined) return { state: withLine(state, edit.insert(state.line, pasted)) };
  // One line and Enter in a single read (a fast typist, a script, a pasted line): text, then Enter.
  // A paste of several lines stays in the input, to be read over before sending.
  if (/^[^\r\n]+\r$/.test(input)) {
    const typed = composerKey(state, input.slice(0, -1), key, commands);
    if (typed.submit !== undefined) return typed;
    return composerKey(typed.state, '\r', { ...key, return: true }, commands);
  }
  // A Tab among keys that came in one read (faster than the chat read them: a busy moment, a
  // slow link) does what it does alone where a list shows; elsewhere it is text, as in a paste.
  if (!key.tab && input.includes('\t') && !/[\r\n]/.test(input)) {
    return { state: typedWithTabs(state, input, key, commands) };
  }
  const items = completionsOf(state, commands);
  if (items.length > 0) {
    const handled = listKey(state, key, items, commands);
    if (handled) return handled;
  }
  const offered = valuesOf(state, commands);
  if (offered) {
    const handled = valuesKey(state, key, offered, commands);
    if (handled) return handled;
  }
  const { line } = state;
  if (key.return) {
    // Alt+Enter (ESC CR) adds a line break; Enter sends.
    if (key.meta) return { state: withLine(state, edit.insert(line, '\n')) };
    return enter(state, commands);
  }
  if (key.upArrow) {
    const moved = older(state.history, line.text);
    return { state: { ...withLine(state, lineOf(moved.text)), history: moved.history } };
  }
  if (key.downArrow) {
    const moved = newer(state.history, line.text);
    return { state: { ...withLine(state, lineOf(moved.text)), history: moved.history } };
  }
  if (key.escape) return { state: { ...state, message: undefined }, escaped: true };
  if (key.tab) return { state };
  // Terminals send DEL for Backspace, which ink reports as `delete`; with Alt, a word goes.
  if ((key.backspace || key.delete) && key.meta) {
    return { state: withLine(state, edit.deleteWordBack(line)) };
  }
  if (key.backspace || key.delete) return { state: withLine(state, edit.backspace(line)) };
  const byWord = key.ctrl || key.meta;
  if (key.leftArrow || (key.meta && input === 'b')) {
    return { state: withLine(state, byWord ? edit.wordLeft(line) : edit.left(line)) };
  }
  if (key.rightArrow || (key.meta && input === 'f')) {
    return { state: withLine(state, byWord ? edit.wordRight(line) : edit.right(line)) };
  }
  if (key.home || (key.ctrl && input === 'a')) return { state: withLine(state, edit.home(line)) };
  if (key.end || (key.ctrl && input === 'e')) return { state: withLine(state, edit.end(line)) };
  if (key.ctrl && input === 'u') return { state: withLine(state, edit.killToStart(line)) };
  if (key.ctrl && input === 'k') return { state: withLine(state, edit.killToEnd(line)) };
  if (key.ctrl && input === 'w') return { state: withLine(state, edit.deleteWordBack(line)) };
  if (key.ctrl || key.meta || input === '') return { state };
  return { state: withLine(state, edit.insert(line, input)) };
}
