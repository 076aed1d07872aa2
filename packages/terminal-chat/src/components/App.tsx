/** @jsxRuntime automatic */
import { Box, useApp, useInput } from 'ink';
import { parseCommandText } from 'a2a-commands/client';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { choicesOf } from '../choices.js';
import { pastedText } from '../key-filter.js';
import type { ChatController } from '../controller.js';
import type { Entry } from '../transcript.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { emptyView, HOME } from '../views.js';
import { Composer, type ComposerHandle } from './Composer.js';
import { Footer, footerKeys } from './Footer.js';
import { Header } from './Header.js';
import { Transcript } from './Transcript.js';

/** The key that opens the newest sub-task link and comes back: T for task. */
export const SUBTASK_KEY = 'Ctrl+T';

/**
 * Whether a reply's list should take the keys: only when the user asked for
 * the list (`/model` or `/tasks` with no arguments), not after picking from it.
 */
function asksToPick(entries: readonly Entry[], reply: Entry): boolean {
  if (!choicesOf(reply)) return false;
  const index = entries.indexOf(reply);
  const asked = entries.slice(0, index).findLast((entry) => entry.kind === 'user');
  return asked !== undefined && parseCommandText(asked.text)?.args === '';
}

/**
 * How far a view is scrolled back, and the entries it shows meanwhile: those
 * of the moment scrolling began, so that what is being read holds still while
 * an answer streams in below. Back at the bottom, the view is live again.
 */
interface Scrolled {
  lines: number;
  entries?: readonly Entry[];
}

interface Picking {
  /** The reply whose list has the keys. */
  key: string;
  selected: number;
}

/** The list that has the keys, read from the controller's latest state. */
function activeChoices(controller: ChatController, picking: Picking | undefined) {
  if (!picking) return undefined;
  const { views, active } = controller.getState();
  const entry = views[active]?.entries.find((candidate) => candidate.key === picking.key);
  return entry && choicesOf(entry);
}

export interface AppProps {
  controller: ChatController;
  /** Ctrl+Z: hand the terminal back to the shell until continued. */
  onSuspend?: () => void;
}

/** The terminal chat: header, transcript, composer, footer, and the keys that move between them. */
export function App({ controller, onSuspend }: AppProps) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const composer = useRef<ComposerHandle>(null);
  const maxScroll = useRef(0);
  const [scrolls, setScrolls] = useState<Record<string, Scrolled>>({});
  const [picker, setPickerState] = useState<Picking>();
  // Keys can come faster than renders: the handler reads the picker from here, never a stale render.
  const pickerNow = useRef<Picking>(undefined);
  const setPicker = (next: Picking | undefined) => {
    pickerNow.current = next;
    setPickerState(next);
  };

  const view = state.views[state.active] ?? emptyView(state.active);
  const scroll = scrolls[view.key]?.lines ?? 0;
  const shownEntries = scrolls[view.key]?.entries ?? view.entries;
  const last = view.entries.at(-1);

  // Lists that had the keys once: coming back to a view does not hand them over again.
  const offered = useRef(new Set<string>());

  // A list the user asked for takes the arrow keys as soon as it arrives, and only then.
  useEffect(() => {
    if (!last || offered.current.has(last.key) || !asksToPick(view.entries, last)) return;
    offered.current.add(last.key);
    const current = choicesOf(last)!.choices.findIndex((choice) => choice.current);
    setPicker({ key: last.key, selected: Math.max(0, current) });
    // Only a new last entry moves the keys, not every update of the view.
  }, [last?.key]);

  const picking = activeChoices(controller, picker) !== undefined;

  const quit = () => {
    controller.close();
    exit();
  };
  const scrollBy = (lines: number) =>
    setScrolls((all) => {
      const was = all[view.key];
      const next = Math.max(0, Math.min(maxScroll.current, (was?.lines ?? 0) + lines));
      const entries = next === 0 ? undefined : (was?.entries ?? view.entries);
      return { ...all, [view.key]: { lines: next, entries } };
    });

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      const outcome = controller.interrupt();
      if (outcome === 'quit') quit();
      else if (outcome === 'armed') composer.current?.clear();
      return;
    }
    controller.disarm();
    if (key.ctrl && input === 'z') {
      onSuspend?.();
      return;
    }
    const page = Math.max(1, rows - 10);
    if (key.pageUp) return scrollBy(page);
    if (key.pageDown) return scrollBy(-page);
    if (key.ctrl && input === 't') {
      setPicker(undefined);
      controller.toggleSubtask();
      return;
    }
    if (key.ctrl && input === 'd') {
      if (composer.current?.isEmpty()) quit();
      return;
    }
    const current = pickerNow.current;
    const set = activeChoices(controller, current);
    if (!current || !set) return;
    const count = set.choices.length;
    if (key.upArrow) setPicker({ ...current, selected: (current.selected - 1 + count) % count });
    else if (key.downArrow) setPicker({ ...current, selected: (current.selected + 1) % count });
    else if (key.return) {
      const choice = set.choices[current.selected]!;
      setPicker(undefined);
      if (set.kind === 'model') send(`/model ${choice.id}`);
      else void controller.openTask(choice.id);
    } else if (key.escape) setPicker(undefined);
    else if (input !== '' && !key.ctrl && !key.meta && !key.tab) {
      setPicker(undefined);
      composer.current?.insert(pastedText(input) ?? input);
    }
  });

  const send = (text: string): boolean => {
    const sent = controller.submit(text);
    if (sent) setScrolls((all) => ({ ...all, [view.key]: { lines: 0 } }));
    return sent;
  };

  const home = view.key === HOME;
  const keys = footerKeys({
    mode: picking ? 'picker' : 'input',
    home,
    busy: view.busy,
    stops: state.commands.some((command) => command.name === 'stop') ? 'answer' : 'task',
    hasCommands: state.commands.length > 0,
    scrolled: scroll > 0,
    linkKey: SUBTASK_KEY,
    width: columns,
  });
  const welcome =
    `Connected to ${state.agentName}. Type a message` +
    (state.commands.length > 0 ? `, or / for its ${state.commands.length} commands.` : '.');
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Header
        agentName={state.agentName}
        url={state.url}
        view={view}
        width={columns}
        offline={state.offline}
      />
      <Transcript
        entries={shownEntries}
        scroll={scroll}
        width={columns}
        rows={rows}
        picker={picking ? picker : undefined}
        linkKey={home ? SUBTASK_KEY : undefined}
        welcome={home ? welcome : 'Loading the task…'}
        onMeasure={(max) => (maxScroll.current = max)}
      />
      <Box marginTop={1} flexShrink={0}>
        <Composer
          ref={composer}
          commands={state.commands}
          argumentValues={controller.argumentValues}
          onSubmit={send}
          onEscape={() => controller.stopAnswer()}
          isActive={!picking}
          width={columns}
          maxRows={Math.max(3, Math.floor(rows / 3))}
          placeholder={home ? 'Type a message' : 'Message this task'}
        />
      </Box>
      <Footer keys={keys} busy={view.busy} status={state.status} width={columns} />
    </Box>
  );
}
