import type { StreamResponse } from '@a2a-js/sdk';
import { isCommandReply } from 'a2a-commands/client';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { describeError, isAbort, isTaskNotFound, type Problem } from '../a2a/errors.js';
import { titleFromText, titleOf as titleOfTask } from '../a2a/messages.js';
import type { AgentSession } from '../a2a/session.js';
import { isBusy } from '../a2a/task-states.js';
import {
  emptyTranscript,
  promptTitleOf,
  transcriptOf,
  transcriptReducer,
  type Transcript,
} from '../a2a/transcript.js';
import { commandNameOf } from '../menu/slash-menu.js';

export interface ChatOptions {
  /** A task was started or opened here: remember it in this browser. */
  onTaskSeen: (task: { id: string; contextId: string; title?: string }) => void;
  /** The agent says it has no such task (gone, or another key's): forget it here. */
  onTaskMissing: (id: string) => void;
  /** A new chat got its task id from the agent. */
  onTaskCreated: (id: string) => void;
  /** Something changed on the agent that the sidebar may want to show. */
  onActivity: () => void;
}

export interface Chat {
  transcript: Transcript;
  /** Opening a task is under way. */
  loading: boolean;
  /** A message to a new chat is on its way: a second one would start another task. */
  starting: boolean;
  /** Streams in flight (sends and a subscription). */
  live: number;
  problem?: Problem;
  dismissProblem: () => void;
  /** Resolves true once the agent accepted the message, false when it never did. */
  send: (text: string) => Promise<boolean>;
  open: (taskId: string) => void;
  newChat: () => void;
  /**
   * Stops the running answer: `/stop` when the card lists it (the task goes on),
   * else CancelTask (the task ends). Resolves to what the user should be told.
   */
  stop: () => Promise<string | undefined>;
}

/** Said when the agent has no `/stop`, so stopping ends the task. */
export const CANCEL_NOTICE =
  'This agent has no /stop: the task was canceled, which ends it. Start a new chat to go on.';

/** A status update that ends a model turn: not a command reply, and the task no longer busy. */
function endsTurn(event: StreamResponse): boolean {
  const payload = event.payload;
  if (payload?.$case !== 'statusUpdate') return false;
  return !isCommandReply(payload.value) && !isBusy(payload.value.status?.state);
}

/** A subscription's snapshot that shows the task idle: the turn ended before the stream opened. */
function endedBeforeSubscribing(event: StreamResponse): boolean {
  return event.payload?.$case === 'task' && !isBusy(event.payload.value.status?.state);
}

/**
 * One task's conversation: opening it, following a turn that is running,
 * sending prompts and commands, and the events of each into the transcript.
 * Each view (a task, or a new chat) has its own AbortController: switching
 * views ends the old view's streams, and their late events are dropped.
 */
export function useChat(session: AgentSession | undefined, options: ChatOptions): Chat {
  const [transcript, dispatch] = useReducer(transcriptReducer, emptyTranscript);
  const [problem, setProblem] = useState<Problem>();
  const [loading, setLoading] = useState(false);
  const [starting, setStarting] = useState(false);
  const [live, setLive] = useState(0);
  const view = useRef(new AbortController());
  const latest = useRef({ transcript, options });
  latest.current = { transcript, options };

  const beginView = useCallback((): AbortController => {
    view.current.abort();
    view.current = new AbortController();
    setProblem(undefined);
    setStarting(false);
    return view.current;
  }, []);

  // Another agent, another world: start afresh.
  useEffect(() => {
    beginView();
    dispatch({ type: 'reset' });
  }, [session, beginView]);
  useEffect(() => () => view.current.abort(), []);

  /** Streams a task's events until its turn ends (or the view changes). */
  const follow = useCallback(
    async (taskId: string, owner: AbortController) => {
      if (!session) return;
      const stream = new AbortController();
      const stop = () => stream.abort();
      owner.signal.addEventListener('abort', stop);
      setLive((n) => n + 1);
      try {
        for await (const event of session.subscribe(taskId, stream.signal)) {
          if (owner.signal.aborted) return;
          if (endedBeforeSubscribing(event)) {
            // Its snapshot carries no history: read the task again for what the turn said.
            const task = await session.getTask(taskId, owner.signal);
            if (!owner.signal.aborted) dispatch({ type: 'reset', task });
            break;
          }
          dispatch({ type: 'event', event });
          if (endsTurn(event)) break;
        }
      } catch (error) {
        if (!owner.signal.aborted && !isAbort(error)) {
          setProblem(describeError(error, session.url, 'open'));
        }
      } finally {
        stream.abort();
        owner.signal.removeEventListener('abort', stop);
        setLive((n) => n - 1);
        latest.current.options.onActivity();
      }
    },
    [session],
  );

  const open = useCallback(
    (taskId: string) => {
      if (!session) return;
      const owner = beginView();
      setLoading(true);
      session.getTask(taskId, owner.signal).then(
        (task) => {
          if (owner.signal.aborted) return;
          dispatch({ type: 'reset', task });
          setLoading(false);
          const title = promptTitleOf(transcriptOf(task).entries);
          if (title !== undefined || titleOfTask(task) !== undefined) {
            latest.current.options.onTaskSeen({ id: task.id, contextId: task.contextId, title });
          }
          if (isBusy(task.status?.state)) void follow(task.id, owner);
        },
        (error: unknown) => {
          if (owner.signal.aborted) return;
          // Reading the task on screen again (a reconnect, another tab's turn) keeps what is shown.
          if (latest.current.transcript.taskId !== taskId) dispatch({ type: 'reset' });
          setLoading(false);
          setProblem(describeError(error, session.url, 'open'));
          if (isTaskNotFound(error)) latest.current.options.onTaskMissing(taskId);
        },
      );
    },
    [session, beginView, follow],
  );

  const newChat = useCallback(() => {
    beginView();
    setLoading(false);
    dispatch({ type: 'reset' });
  }, [beginView]);

  const send = useCallback(
    (text: string): Promise<boolean> => {
      if (!session) return Promise.resolve(false);
      const owner = view.current;
      const target = latest.current.transcript;
      const isNew = !target.taskId;
      const { messageId, events } = session.send(
        text,
        { taskId: target.taskId, contextId: target.contextId },
        owner.signal,
      );
      const command = commandNameOf(text, session.commands);
      dispatch({ type: 'sent', messageId, text, command });
      setProblem(undefined);
      if (isNew) setStarting(true);
      setLive((n) => n + 1);

      return new Promise<boolean>((resolve) => {
        let accepted = false;
        const accept = () => {
          if (accepted) return;
          accepted = true;
          dispatch({ type: 'accepted', messageId });
          resolve(true);
        };
        void (async () => {
          try {
            for await (const event of events) {
              if (owner.signal.aborted) return;
              accept();
              dispatch({ type: 'event', event });
              const payload = event.payload;
              if (payload?.$case === 'task') {
                const { id, contextId } = payload.value;
                // The first prompt names the task in this browser until the agent has a
                // title; a chat holding only commands (`/help` on the empty screen) is
                // not listed, or it would stay behind as an untitled task.
                if (!command) {
                  latest.current.options.onTaskSeen({ id, contextId, title: titleFromText(text) });
                }
                if (isNew) {
                  setStarting(false);
                  latest.current.options.onTaskCreated(id);
                }
              }
            }
            accept();
          } catch (error) {
            if (owner.signal.aborted || isAbort(error)) return;
            if (!accepted) dispatch({ type: 'unsent', messageId });
            setProblem(describeError(error, session.url, accepted ? 'stream' : 'send'));
          } finally {
            if (!accepted) resolve(false);
            if (isNew && !owner.signal.aborted) setStarting(false);
            setLive((n) => n - 1);
            latest.current.options.onActivity();
          }
        })();
      });
    },
    [session],
  );

  const stop = useCallback(async (): Promise<string | undefined> => {
    const taskId = latest.current.transcript.taskId;
    if (!session || !taskId) return undefined;
    // The harness's /stop keeps the answer so far and the task (SEMANTICS §4: commands run mid-turn).
    if (session.commands.some((command) => command.name === 'stop')) {
      const owner = view.current;
      if (await send('/stop')) {
        // The turn's end and the /stop reply come on two streams, in either order:
        // the task's own word on its state settles whether Send or Stop shows.
        const task = await session.getTask(taskId, owner.signal).catch(() => undefined);
        if (task && !owner.signal.aborted) {
          dispatch({ type: 'state', taskId, state: task.status?.state });
        }
      }
      return undefined;
    }
    try {
      await session.cancel(taskId, view.current.signal);
      return CANCEL_NOTICE;
    } catch (error) {
      if (isAbort(error)) return undefined;
      setProblem(describeError(error, session.url, 'send'));
      return undefined;
    }
  }, [session, send]);

  const dismissProblem = useCallback(() => setProblem(undefined), []);
  return {
    transcript,
    loading,
    starting,
    live,
    problem,
    dismissProblem,
    send,
    open,
    newChat,
    stop,
  };
}
