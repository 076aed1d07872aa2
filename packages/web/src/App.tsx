import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { agentUrlFrom, searchFor } from './a2a/agent-url.js';
import { requiresApiKey } from 'a2a-chat-core';
import { loadApiKey, saveApiKey } from './a2a/api-key-store.js';
import { cardRefreshMs } from './a2a/live-agent.js';
import type { Problem } from './a2a/errors.js';
import { forkOriginOf } from './a2a/fork-of.js';
import { chosenModelOf, parentOf, titleOf } from './a2a/messages.js';
import { isBusy, isTerminal } from './a2a/task-states.js';
import { UNTITLED } from './a2a/task-list.js';
import { promptTitleOf } from './a2a/transcript.js';
import { AgentForm } from './components/AgentForm.js';
import { ChatHeader, type ConnectionState } from './components/ChatHeader.js';
import { Composer } from './components/Composer.js';
import { Conversation } from './components/Conversation.js';
import { EmptyState } from './components/EmptyState.js';
import { modelFromReplies } from './components/reply-view.js';
import { ENDED_PLACEHOLDER, ENDED_PROMPT_REFUSAL, EndedTask } from './components/EndedTask.js';
import { ErrorBanner } from './components/ErrorBanner.js';
import { Sidebar } from './components/Sidebar.js';
import { useAgent } from './state/use-agent.js';
import { useDrawerFocus } from './state/use-drawer-focus.js';
import { useChat } from './state/use-chat.js';
import { useHashTask } from './state/use-hash-task.js';
import { useHiddenTasks } from './state/use-hidden-tasks.js';
import { useKnownTasks, useTaskListScope } from './state/use-known-tasks.js';
import { useLiveAgent } from './state/use-live-agent.js';
import { useTaskWatch } from './state/use-task-watch.js';
import { useTaskList } from './state/use-task-list.js';

const SIDEBAR_ID = 'sidebar';
const MENU_BUTTON_ID = 'sidebar-opener';
const COMPOSER_ID = 'composer';

/** API keys live in session storage: they go when the tab closes. */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

const keptKeyFor = (url: string) => loadApiKey(sessionStore(), url);

/** The agent this page talks to, and the API key it sends (kept per URL, this tab only). */
interface Target {
  url: string;
  apiKey?: string;
}

/** The web chat: the sidebar of tasks, and the open task's conversation with its composer. */
export function App() {
  const [target, setTarget] = useState<Target>(() => {
    const url = agentUrlFrom(window.location);
    return { url, apiKey: keptKeyFor(url) };
  });
  const { url: agentUrl, apiKey } = target;
  const agent = useAgent(agentUrl, apiKey);
  const session = agent.status.kind === 'ready' ? agent.status.session : undefined;
  const [refreshMs] = useState(() => cardRefreshMs(window.location));
  const live = useLiveAgent(session, refreshMs);
  const taskListScope = useTaskListScope(agentUrl, apiKey);
  const known = useKnownTasks(taskListScope);
  const hiddenTasks = useHiddenTasks(taskListScope);
  const { taskId: routeTaskId, go, replace } = useHashTask();
  const list = useTaskList(session, known.tasks);
  const chat = useChat(session, {
    onTaskSeen: known.remember,
    onTaskMissing: known.forget,
    onTaskCreated: replace,
    onActivity: list.refresh,
  });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [keyFocus, setKeyFocus] = useState(0);
  const [composerFocus, setComposerFocus] = useState(0);
  const focusComposer = useCallback(() => setComposerFocus((n) => n + 1), []);
  const { transcript } = chat;
  const shownId = useRef<string | undefined>(undefined);
  shownId.current = transcript.taskId;

  // The hash names the task to show; a new chat has none.
  const { open, newChat } = chat;
  useEffect(() => {
    if (!session) return;
    if (routeTaskId === undefined) {
      if (shownId.current !== undefined) newChat();
    } else if (routeTaskId !== shownId.current) {
      open(routeTaskId);
    }
    setDrawerOpen(false);
  }, [session, routeTaskId, open, newChat]);

  // A link in the conversation or the header opened another task (by keyboard,
  // say): the link goes with the old view, so focus goes on in the message box.
  const routeSeen = useRef(routeTaskId);
  useEffect(() => {
    if (routeSeen.current === routeTaskId) return;
    routeSeen.current = routeTaskId;
    const active = document.activeElement;
    if (!active || active === document.body || active.closest('.conversation, .chat-head')) {
      focusComposer();
    }
  }, [routeTaskId, focusComposer]);

  // An outage another call ran into: the agent is tried again until it answers.
  const { reportUnreachable, reconnects } = live;
  const chatProblem = chat.problem;
  const listProblem = list.problem;
  useEffect(() => {
    for (const problem of [chatProblem, listProblem]) if (problem) reportUnreachable(problem);
  }, [chatProblem, listProblem, reportUnreachable]);

  // The agent is back: read the open task again (and follow its turn), and the list.
  const { refresh: refreshList } = list;
  const { dismissProblem } = chat;
  useEffect(() => {
    if (reconnects === 0) return;
    if (shownId.current !== undefined) open(shownId.current);
    else dismissProblem();
    refreshList();
  }, [reconnects, open, dismissProblem, refreshList]);

  // Another tab or client at work on the open task: read it again and follow its turn.
  useTaskWatch(session, transcript.taskId, {
    // An ended task runs no more turns (and refuses SubscribeToTask).
    quiet: chat.live === 0 && !chat.loading && !isTerminal(transcript.state),
    reconnects,
    onActivity: open,
    onUnreachable: reportUnreachable,
  });

  const startNewChat = useCallback(() => {
    go(undefined);
    newChat();
    setDrawerOpen(false);
    focusComposer();
  }, [go, newChat, focusComposer]);

  // A click on a card's button or a suggested command sends it; typing goes on in the box.
  const { send } = chat;
  const sendFromClick = useCallback(
    (text: string) => {
      focusComposer();
      return send(text);
    },
    [send, focusComposer],
  );

  /** The task each key of this agent had open, this tab only (a key opens its own). */
  const openByKey = useRef(new Map<string | undefined, string | undefined>());
  const keyRefused = agent.status.kind === 'failed' && agent.status.problem.apiKey === 'refused';
  // Edit and resend: the last prompt back in the box; Regenerate: the last prompt again.
  const [draft, setDraft] = useState<{ text: string; version: number }>();
  const editLast = useCallback(
    (text: string) => setDraft((previous) => ({ text, version: (previous?.version ?? 0) + 1 })),
    [],
  );
  const lastPrompt = useRef<string | undefined>(undefined);
  lastPrompt.current = transcript.entries.findLast(
    (entry) => entry.kind === 'user' && !entry.command,
  )?.text;
  const regenerate = useCallback(() => {
    if (lastPrompt.current !== undefined) void sendFromClick(lastPrompt.current);
  }, [sendFromClick]);

  const { retry } = agent;
  const connect = useCallback(
    (url: string, key: string | undefined) => {
      saveApiKey(sessionStore(), url, key);
      setDrawerOpen(false);
      if (url === agentUrl && key === apiKey) {
        retry();
        return;
      }
      // Tasks belong to their agent: another agent starts on a new chat.
      if (url !== agentUrl) {
        go(undefined, searchFor(url, window.location));
      } else if (!keyRefused) {
        // Tasks belong to their key's principal: each key gets back the task it
        // had open. After a refused key the link stays (a fixed typo's task).
        openByKey.current.set(apiKey, routeTaskId);
        if (openByKey.current.get(key) !== routeTaskId) go(openByKey.current.get(key));
      }
      setTarget({ url, apiKey: key });
    },
    [go, retry, agentUrl, apiKey, keyRefused, routeTaskId],
  );

  const forgetKey = useCallback(() => {
    saveApiKey(sessionStore(), agentUrl, undefined);
    setTarget({ url: agentUrl });
  }, [agentUrl]);

  /** Shows the key field (the drawer on a phone) with focus in it. */
  const askForKey = useCallback(() => {
    setDrawerOpen(true);
    setKeyFocus((n) => n + 1);
  }, []);

  // An agent that needs a key it does not have: take the person straight to the field.
  useEffect(() => {
    if (agent.status.kind === 'failed' && agent.status.problem.apiKey) askForKey();
  }, [agent.status, askForKey]);

  const keyProblem =
    agent.status.kind === 'failed'
      ? agent.status.problem.apiKey
      : (chat.problem?.apiKey ?? list.problem?.apiKey);
  const keyRequired =
    agent.status.kind === 'ready'
      ? requiresApiKey(agent.status.session.card)
      : agent.status.kind === 'failed' && agent.status.problem.apiKey !== undefined;
  const keyAction = (problem: Problem) =>
    problem.apiKey
      ? {
          label: problem.apiKey === 'missing' ? 'Enter the API key' : 'Change the API key',
          onClick: askForKey,
        }
      : undefined;

  useDrawerFocus({
    open: drawerOpen,
    drawerId: SIDEBAR_ID,
    openerId: MENU_BUTTON_ID,
    onClose: () => setDrawerOpen(false),
  });

  // The task the link names, even before it is read (a reload): never "New chat" for it.
  const shownTaskId = routeTaskId ?? transcript.taskId;
  const row = list.rows.find((candidate) => candidate.id === shownTaskId);
  const title =
    (transcript.taskId === shownTaskId ? titleOf(transcript) : undefined) ??
    (row && row.title !== UNTITLED ? row.title : undefined) ??
    promptTitleOf(transcript.entries) ??
    (shownTaskId ? UNTITLED : 'New chat');
  // A fork names where it came from; a sub-task its parent.
  const forkOrigin = forkOriginOf(transcript);
  const parentId = forkOrigin ?? parentOf(transcript);
  const parent = parentId
    ? {
        id: parentId,
        title:
          list.rows.find((candidate) => candidate.id === parentId)?.title ??
          (forkOrigin ? 'the original task' : 'Parent task'),
        fork: forkOrigin !== undefined,
      }
    : undefined;
  // The open task's state is freshest in its transcript.
  const rows = list.rows.map((candidate) =>
    candidate.id === transcript.taskId && transcript.state !== undefined
      ? { ...candidate, state: transcript.state }
      : candidate,
  );
  // SEMANTICS §4: an ended task takes commands, not prompts.
  const ended = transcript.taskId !== undefined && isTerminal(transcript.state);
  const last = transcript.entries[transcript.entries.length - 1];
  const thinking =
    isBusy(transcript.state) && last?.kind === 'user' && !last.command && !last.pending;

  const connection: ConnectionState | undefined =
    agent.status.kind === 'connecting'
      ? 'connecting'
      : agent.status.kind === 'failed'
        ? 'not-connected'
        : live.offline
          ? 'reconnecting'
          : undefined;

  useEffect(() => {
    document.title = session ? `${title} · ${session.card.name}` : title;
  }, [title, session]);

  // Read on every render: the session's card changes when `live.cardVersion` moves.
  const commands = session?.commands ?? [];
  const completion = session?.completion;
  const completionTaskId = transcript.taskId;
  const argumentValues = useMemo(
    () =>
      session && completion
        ? (input: string, signal: AbortSignal) =>
            session.completeArgument(input, completionTaskId, signal)
        : undefined,
    [session, completion, completionTaskId],
  );
  return (
    <div className={`app${drawerOpen ? ' drawer-open' : ''}`}>
      <a
        className="skip-link"
        href={`#${COMPOSER_ID}`}
        onClick={(event) => {
          // The hash names the open task: focus the box without touching it.
          event.preventDefault();
          focusComposer();
        }}
      >
        Skip to the message box
      </a>
      <Sidebar
        id={SIDEBAR_ID}
        rows={rows}
        currentId={transcript.taskId}
        problem={list.problem}
        status={agent.status}
        agentUrl={agentUrl}
        agentForm={
          <AgentForm
            url={agentUrl}
            status={agent.status}
            offline={live.offline !== undefined}
            apiKey={apiKey}
            keyProblem={keyProblem}
            keyRequired={keyRequired}
            focusKey={keyFocus}
            keyFor={keptKeyFor}
            onConnect={connect}
            onForgetKey={forgetKey}
          />
        }
        open={drawerOpen}
        hidden={hiddenTasks.hidden}
        onHide={hiddenTasks.setHidden}
        onNewChat={startNewChat}
        onClose={() => setDrawerOpen(false)}
      />
      <div className="scrim" aria-hidden="true" onClick={() => setDrawerOpen(false)} />
      <main className="chat">
        <ChatHeader
          title={title}
          state={transcript.state}
          taskId={transcript.taskId}
          parent={parent}
          sidebarId={SIDEBAR_ID}
          menuButtonId={MENU_BUTTON_ID}
          sidebarOpen={drawerOpen}
          onMenu={() => setDrawerOpen((value) => !value)}
          connection={connection}
          model={
            transcript.taskId === shownTaskId
              ? (modelFromReplies(transcript.entries) ?? chosenModelOf(transcript))
              : undefined
          }
          onRename={
            transcript.taskId && commands.some((command) => command.name === 'title')
              ? () => editLast('/title ')
              : undefined
          }
        />
        {agent.status.kind === 'failed' && (
          <ErrorBanner
            className="error-banner--page"
            problem={agent.status.problem}
            // A retry without a (good) key fails the same way: the key field is the way on.
            onRetry={agent.status.problem.apiKey ? undefined : agent.retry}
            action={keyAction(agent.status.problem)}
          />
        )}
        <Conversation
          chatId={transcript.taskId}
          entries={transcript.entries}
          thinking={thinking}
          onCommand={sendFromClick}
          onEdit={ended ? undefined : editLast}
          onRegenerate={ended || isBusy(transcript.state) ? undefined : regenerate}
          empty={
            chat.loading ? (
              <p className="loading">Loading the task…</p>
            ) : (
              <EmptyState
                card={session?.card}
                noCardTitle={agent.status.kind === 'failed' ? 'Not connected' : undefined}
                commands={commands}
                onCommand={(text) => void sendFromClick(text)}
              />
            )
          }
        />
        <div className="chat-foot">
          {chat.problem && (
            <ErrorBanner
              problem={chat.problem}
              action={keyAction(chat.problem)}
              onDismiss={chat.dismissProblem}
            />
          )}
          {ended && transcript.state !== undefined && (
            <EndedTask
              state={transcript.state}
              canFork={commands.some((command) => command.name === 'fork')}
              onNewChat={startNewChat}
              onFork={() => void sendFromClick('/fork')}
            />
          )}
          <Composer
            commands={commands}
            placeholder={ended ? ENDED_PLACEHOLDER : undefined}
            draft={draft}
            promptRefusal={ended ? ENDED_PROMPT_REFUSAL : undefined}
            argumentValues={argumentValues}
            onSend={chat.send}
            inputId={COMPOSER_ID}
            focusRequest={composerFocus}
            answering={isBusy(transcript.state)}
            onStop={chat.stop}
            disabled={!session}
            sendDisabled={chat.starting}
          />
        </div>
      </main>
    </div>
  );
}
