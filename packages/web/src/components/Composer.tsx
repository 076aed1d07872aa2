import { enterWithList, type EnterOutcome } from 'a2a-chat-core';
import { type CommandSpec } from 'a2a-commands/client';
import { takeValue } from 'a2a-commands/client/completion';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import {
  commandHelp,
  commandNameOf,
  ghostHint,
  insertionFor,
  menuEntries,
  moveActive,
  sendBlocker,
  unknownCommandWarning,
} from '../menu/slash-menu.js';
import { useArgumentValues, type ArgumentValuesSource } from '../state/use-argument-values.js';
import { optionId, SlashMenu } from './SlashMenu.js';
import { ValueMenu } from './ValueMenu.js';

/** The tallest the composer grows before it scrolls, in px. */
const MAX_HEIGHT = 240;

/**
 * The message box. A `/` at its start opens the slash menu (an ARIA combobox
 * with a listbox). Choosing an entry inserts `/<name> ` and shows the
 * command's argument hint as ghost text; a required `<...>` argument must be
 * typed before Enter sends. The text is cleared only once the agent has
 * accepted it: on an error it stays, to fix or send again. After the name,
 * the values the agent offers for the argument are listed; Tab takes one.
 */
export function Composer({
  commands,
  onSend,
  disabled = false,
  sendDisabled = false,
  placeholder: placeholderText,
  argumentValues,
  answering = false,
  onStop,
  inputId,
  focusRequest = 0,
  promptRefusal,
  draft,
}: {
  /** Text to put in the box for editing (Edit this message); each new `version` puts it again. */
  draft?: { text: string; version: number };
  /** Set when prompts are not taken here (an ended task): why, said instead of sending one. */
  promptRefusal?: string;
  /** The box's id, for the skip link. */
  inputId?: string;
  /** Raised to move focus into the box (New chat, a picker click). */
  focusRequest?: number;
  /** An answer is streaming: Stop replaces Send, and Esc stops it. */
  answering?: boolean;
  /** Stops the answer; resolves to what to tell the user, if anything. */
  onStop?: () => Promise<string | undefined>;
  commands: readonly CommandSpec[];
  /** Values for a command's argument (the command completion extension); none when absent. */
  argumentValues?: ArgumentValuesSource;
  /** Resolves true when the agent accepted the text. */
  onSend: (text: string) => Promise<boolean>;
  /** No agent to talk to: nothing can be typed. */
  disabled?: boolean;
  /** Typing is fine, sending must wait (a new task is being made). */
  sendDisabled?: boolean;
  /** The box's placeholder; an invitation to type by default. */
  placeholder?: string;
}) {
  const placeholder = placeholderText ?? 'Message the agent, or type / for commands';
  const id = useId();
  const listboxId = `${id}commands`;
  const valuesId = `${id}values`;
  const helpId = `${id}help`;
  const [value, setValue] = useState('');
  const [active, setActive] = useState(0);
  /**
   * The person moved the highlight with the arrows: Enter then takes it even
   * with nothing typed. A hover does not count: the list may open under a
   * resting pointer.
   */
  const [moved, setMoved] = useState(false);
  const [dismissedAt, setDismissedAt] = useState<string>();
  const [focused, setFocused] = useState(false);
  const [notice, setNotice] = useState<string>();
  const textarea = useRef<HTMLTextAreaElement>(null);

  const entries = useMemo(() => menuEntries(value, commands), [value, commands]);
  const open = focused && !disabled && entries.length > 0 && dismissedAt !== value;
  // Still typing a name that nothing matches: the menu says so rather than vanishing.
  const noMatch =
    focused &&
    !disabled &&
    commands.length > 0 &&
    entries.length === 0 &&
    /^\/\S+$/.test(value) &&
    dismissedAt !== value;
  const offered = useArgumentValues(value, argumentValues);
  const valuesOpen =
    focused && !disabled && !open && offered !== undefined && dismissedAt !== value;
  const activeIndex = Math.min(
    Math.max(active, 0),
    (valuesOpen ? offered.values.length : entries.length) - 1,
  );
  const menuId = open ? listboxId : valuesOpen ? valuesId : undefined;
  const ghost = ghostHint(value, commands);

  // Focus comes here when asked, and when the box becomes usable (page load,
  // a reconnect) unless the person is already somewhere else on the page.
  const lastRequest = useRef(focusRequest);
  useEffect(() => {
    const element = textarea.current;
    if (!element || disabled) return;
    const asked = lastRequest.current !== focusRequest;
    lastRequest.current = focusRequest;
    const idle = document.activeElement === null || document.activeElement === document.body;
    if (asked || idle) element.focus();
  }, [focusRequest, disabled]);

  useEffect(() => {
    if (!draft) return;
    setValue(draft.text);
    const element = textarea.current;
    element?.focus();
    element?.setSelectionRange(draft.text.length, draft.text.length);
  }, [draft]);

  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT)}px`;
    element.style.overflowY = element.scrollHeight > MAX_HEIGHT ? 'auto' : 'hidden';
  }, [value]);

  const change = (next: string) => {
    setValue(next);
    setActive(0);
    setMoved(false);
    setNotice(undefined);
    // Esc closes the menu for the text it was pressed on; any edit (even back to `/`) reopens it.
    setDismissedAt(undefined);
  };

  const choose = (index: number) => {
    const entry = entries[index];
    if (!entry) return;
    change(insertionFor(entry.command));
    textarea.current?.focus();
  };

  /** Puts the value in the box; its list closes until the next edit. */
  const take = (index: number) => {
    const entry = offered?.values[index];
    if (!offered || !entry) return;
    const next = takeValue(value, offered.position, entry.value);
    change(next);
    setDismissedAt(next);
    textarea.current?.focus();
  };

  /** Enter with a list open: the line as typed, or the highlighted entry taken (and sent). */
  const follow = (outcome: EnterOutcome) => {
    if (outcome.kind === 'as-typed') {
      void submit();
      return;
    }
    change(outcome.text);
    textarea.current?.focus();
    if (outcome.kind === 'send') {
      // The taken line's list stays closed while it is sent, and if it is refused.
      setDismissedAt(outcome.text);
      void submit(outcome.text);
    }
  };

  const moveTo = (index: number) => {
    setActive(index);
    setMoved(true);
  };

  const submit = async (text = value) => {
    const blocker = sendBlocker(text, commands);
    if (blocker) {
      if (text.trim() !== '') setNotice(blocker);
      return;
    }
    if (sendDisabled || disabled) return;
    if (promptRefusal && commandNameOf(text, commands) === undefined) {
      setNotice(promptRefusal);
      return;
    }
    const accepted = await onSend(text);
    if (accepted) setValue((current) => (current === text ? '' : current));
  };

  const stop = async () => {
    if (!onStop) return;
    // Send takes Stop's place: focus in the box, not on a button about to go.
    textarea.current?.focus();
    const said = await onStop();
    if (said) setNotice(said);
  };
  const canStop = answering && onStop !== undefined;

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive(moveActive(activeIndex, entries.length, event.key === 'ArrowDown' ? 1 : -1));
        return;
      }
      if (event.key === 'Tab' && !event.shiftKey) {
        event.preventDefault();
        choose(activeIndex);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        const list = { kind: 'commands', entries, highlighted: activeIndex } as const;
        follow(enterWithList(value, list, commands));
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedAt(value);
        return;
      }
    }
    if (noMatch && event.key === 'Escape') {
      event.preventDefault();
      setDismissedAt(value);
      return;
    }
    if (valuesOpen) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        moveTo(moveActive(activeIndex, offered.values.length, event.key === 'ArrowDown' ? 1 : -1));
        return;
      }
      if (event.key === 'Tab' && !event.shiftKey) {
        event.preventDefault();
        take(activeIndex);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey) {
        event.preventDefault();
        const list = { kind: 'values', offered, highlighted: activeIndex, moved } as const;
        follow(enterWithList(value, list, commands));
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedAt(value);
        return;
      }
    }
    if (event.key === 'Escape' && canStop) {
      event.preventDefault();
      void stop();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void submit();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  // Said before sending, while nothing in the menu matches what is typed.
  const unknown = open ? undefined : unknownCommandWarning(value, commands);
  const help = commandHelp(value, commands);

  return (
    <form className="composer" onSubmit={onSubmit} aria-label="Send a message">
      {open && (
        <SlashMenu
          id={listboxId}
          entries={entries}
          active={activeIndex}
          onHover={setActive}
          onChoose={choose}
        />
      )}
      {noMatch && (
        <div className="slash-menu slash-menu--empty">
          <p className="slash-empty">
            No command matches <code>{value}</code>.
          </p>
        </div>
      )}
      {valuesOpen && (
        <ValueMenu
          id={valuesId}
          offered={offered}
          active={activeIndex}
          onHover={setActive}
          onChoose={take}
        />
      )}
      <div className={`composer-box${disabled ? ' is-disabled' : ''}`}>
        <div className="composer-field">
          {ghost && (
            <div className="composer-ghost" aria-hidden="true" data-testid="argument-hint">
              <span className="ghost-typed">{value}</span>
              {ghost.gap}
              <span className={`ghost-hint${ghost.required ? ' is-required' : ''}`}>
                {ghost.hint}
              </span>
            </div>
          )}
          <textarea
            ref={textarea}
            id={inputId}
            className="composer-input"
            rows={1}
            value={value}
            placeholder={placeholder}
            disabled={disabled}
            spellCheck={!value.startsWith('/')}
            autoComplete="off"
            role="combobox"
            aria-label="Message"
            aria-autocomplete="list"
            aria-haspopup="listbox"
            aria-expanded={menuId !== undefined}
            aria-controls={menuId}
            aria-activedescendant={menuId ? optionId(menuId, activeIndex) : undefined}
            aria-describedby={helpId}
            aria-invalid={notice ? true : undefined}
            onChange={(event) => change(event.target.value)}
            onKeyDown={onKeyDown}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
          />
        </div>
        {canStop ? (
          <button
            type="button"
            className="send-button stop-button"
            aria-label="Stop"
            title="Stop the answer (Esc)"
            onClick={() => void stop()}
          >
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
              <rect x="5" y="5" width="10" height="10" rx="1.5" fill="currentColor" />
            </svg>
          </button>
        ) : (
          <button
            type="submit"
            className="send-button"
            aria-label="Send"
            disabled={disabled || sendDisabled || value.trim() === ''}
          >
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
              <path
                d="M10 16V4M4.5 9.5 10 4l5.5 5.5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
        )}
      </div>
      <p
        id={helpId}
        className={`composer-help${notice || unknown ? ' is-warning' : ''}`}
        aria-live="polite"
      >
        {notice ?? unknown ?? help ?? (
          // Keys mean nothing on a touch screen: CSS hides this on phones.
          <span className="composer-keys">
            <kbd>Enter</kbd> send · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>/</kbd>{' '}
            commands
          </span>
        )}
      </p>
    </form>
  );
}
