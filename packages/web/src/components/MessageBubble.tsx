import type { AgentEntry, UserEntry } from '../a2a/transcript.js';
import { Markdown } from './Markdown.js';

/** A prompt, a typed command, or the model's answer (streaming until the turn ends). */
export function MessageBubble({ entry }: { entry: UserEntry | AgentEntry }) {
  if (entry.kind === 'user') {
    if (entry.command) {
      return (
        <div className={`msg msg--user msg--command${entry.pending ? ' is-pending' : ''}`}>
          <span className="sr-only">You ran </span>
          <code className="command-line">{entry.text}</code>
        </div>
      );
    }
    return (
      <div className={`msg msg--user${entry.pending ? ' is-pending' : ''}`}>
        <span className="sr-only">You said: </span>
        <div className="bubble bubble--user">{entry.text}</div>
      </div>
    );
  }
  return (
    <div className="msg msg--agent" aria-busy={entry.streaming || undefined}>
      <span className="sr-only">Agent: </span>
      <div className="bubble bubble--agent">
        {entry.partial ? (
          <p className="answer-in-progress">answer in progress</p>
        ) : (
          <Markdown text={entry.text} />
        )}
        {entry.streaming && <span className="caret" aria-hidden="true" />}
        {entry.stopped && <p className="answer-stopped">stopped</p>}
      </div>
    </div>
  );
}
