import { useCallback, useEffect, useRef, useState } from 'react';
import { agentUrlFrom, searchFor } from './a2a/agent-url.js';
import { parentOf, titleOf } from './a2a/messages.js';
import { isBusy } from './a2a/task-states.js';
import { UNTITLED } from './a2a/task-list.js';
import { promptTitleOf } from './a2a/transcript.js';
import { ChatHeader } from './components/ChatHeader.js';
import { Composer } from './components/Composer.js';
import { Conversation } from './components/Conversation.js';
import { EmptyState } from './components/EmptyState.js';
import { ErrorBanner } from './components/ErrorBanner.js';
import { Sidebar } from './components/Sidebar.js';
import { useAgent } from './state/use-agent.js';
import { useChat } from './state/use-chat.js';
import { useHashTask } from './state/use-hash-task.js';
import { useKnownTasks } from './state/use-known-tasks.js';
import { useTaskList } from './state/use-task-list.js';

const SIDEBAR_ID = 'sidebar';

/** The web chat: the sidebar of tasks, and the open task's conversation with its composer. */
export function App() {
  const [agentUrl, setAgentUrl] = useState(() => agentUrlFrom(window.location));
  const agent = useAgent(agentUrl);
  const session = agent.status.kind === 'ready' ? agent.status.session : undefined;
  const known = useKnownTasks(agentUrl);
  const { taskId: routeTaskId, go, replace } = useHashTask();
  const list = useTaskList(session, known.tasks);
  const chat = useChat(session, {
    onTaskSeen: known.remember,
    onTaskCreated: replace,
    onActivity: list.refresh,
  });
  const [drawerOpen, setDrawerOpen] = useState(false);
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

  const startNewChat = useCallback(() => {
    go(undefined);
    newChat();
    setDrawerOpen(false);
  }, [go, newChat]);

  const connect = useCallback(
    (url: string) => {
      // Tasks belong to their agent: another agent starts on a new chat.
      go(undefined, searchFor(url, window.location));
      setAgentUrl(url);
      setDrawerOpen(false);
    },
    [go],
  );

  // Escape closes the drawer on a phone.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  const row = list.rows.find((candidate) => candidate.id === transcript.taskId);
  const title =
    titleOf(transcript) ??
    (row && row.title !== UNTITLED ? row.title : undefined) ??
    promptTitleOf(transcript.entries) ??
    (transcript.taskId ? UNTITLED : 'New chat');
  const parentId = parentOf(transcript);
  const parent = parentId
    ? {
        id: parentId,
        title: list.rows.find((candidate) => candidate.id === parentId)?.title ?? 'Parent task',
      }
    : undefined;
  // The open task's state is freshest in its transcript.
  const rows = list.rows.map((candidate) =>
    candidate.id === transcript.taskId && transcript.state !== undefined
      ? { ...candidate, state: transcript.state }
      : candidate,
  );
  const last = transcript.entries[transcript.entries.length - 1];
  const thinking =
    isBusy(transcript.state) && last?.kind === 'user' && !last.command && !last.pending;

  useEffect(() => {
    document.title = session ? `${title} · ${session.card.name}` : 'A2A chat';
  }, [title, session]);

  const commands = session?.commands ?? [];
  return (
    <div className={`app${drawerOpen ? ' drawer-open' : ''}`}>
      <Sidebar
        id={SIDEBAR_ID}
        rows={rows}
        currentId={transcript.taskId}
        problem={list.problem}
        agentUrl={agentUrl}
        status={agent.status}
        open={drawerOpen}
        onNewChat={startNewChat}
        onConnect={connect}
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
          sidebarOpen={drawerOpen}
          onMenu={() => setDrawerOpen((value) => !value)}
        />
        {agent.status.kind === 'failed' && (
          <ErrorBanner
            className="error-banner--page"
            problem={agent.status.problem}
            onRetry={agent.retry}
          />
        )}
        <Conversation
          entries={transcript.entries}
          thinking={thinking}
          onCommand={chat.send}
          empty={
            chat.loading ? (
              <p className="loading">Loading the task…</p>
            ) : (
              <EmptyState
                card={session?.card}
                commands={commands}
                onCommand={(text) => void chat.send(text)}
              />
            )
          }
        />
        <div className="chat-foot">
          {chat.problem && <ErrorBanner problem={chat.problem} onDismiss={chat.dismissProblem} />}
          <Composer
            commands={commands}
            onSend={chat.send}
            disabled={!session}
            sendDisabled={chat.starting}
          />
        </div>
      </main>
    </div>
  );
}
