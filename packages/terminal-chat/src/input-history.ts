/** Sent inputs, newest last, browsed with Up and Down; the draft comes back past the newest. */
export interface InputHistory {
  items: readonly string[];
  /** The entry on screen, or undefined while editing the draft. */
  index?: number;
  draft: string;
}

export const MAX_HISTORY = 200;

export const EMPTY_HISTORY: InputHistory = { items: [], draft: '' };

/** Remembers a sent input (not twice in a row) and returns to the draft. */
export function remember(history: InputHistory, text: string): InputHistory {
  const items = history.items.at(-1) === text ? history.items : [...history.items, text];
  return { items: items.slice(-MAX_HISTORY), draft: '' };
}

/** Up: the previous input, keeping `current` as the draft when leaving it. */
export function older(
  history: InputHistory,
  current: string,
): { history: InputHistory; text: string } {
  if (history.items.length === 0) return { history, text: current };
  const index = history.index === undefined ? history.items.length - 1 : history.index - 1;
  if (index < 0) return { history, text: current };
  const draft = history.index === undefined ? current : history.draft;
  return { history: { ...history, index, draft }, text: history.items[index]! };
}

/** Down: the next input, or the draft after the newest. */
export function newer(
  history: InputHistory,
  current: string,
): { history: InputHistory; text: string } {
  if (history.index === undefined) return { history, text: current };
  const index = history.index + 1;
  if (index >= history.items.length) {
    return { history: { ...history, index: undefined }, text: history.draft };
  }
  return { history: { ...history, index }, text: history.items[index]! };
}
