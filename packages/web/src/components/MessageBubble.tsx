import type { AgentEntry, UserEntry } from '../a2a/transcript.js';
import { useCopy } from '../state/use-copy.js';
import { Markdown } from './Markdown.js';

/** What can be done with a message: given only for the last prompt and the last answer. */
export interface MessageActions {
  /** Puts the last prompt back in the box, to edit and send again. */
  onEdit?: (text: string) => void;
  /** Sends the last prompt again, for another answer. */
  onRegenerate?: () => void;
}

/** A prompt, a typed command, or the model's answer (streaming until the turn ends). */
export function MessageBubble({
  entry,
  onEdit,
  onRegenerate,
}: { entry: UserEntry | AgentEntry } & MessageActions) {
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
        {onEdit && !entry.pending && (
          <div className="msg-actions">
            <button type="button" className="msg-action" onClick={() => onEdit(entry.text)}>
              Edit this message
            </button>
          </div>
        )}
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
      {!entry.streaming && <AnswerActions text={entry.text} onRegenerate={onRegenerate} />}
    </div>
  );
}

function AnswerActions({ text, onRegenerate }: { text: string; onRegenerate?: () => void }) {
  const { state, copy } = useCopy();
  return (
    <div className="msg-actions">
      <button type="button" className="msg-action" onClick={() => void copy(text)}>
        {state === 'copied' ? 'Copied' : 'Copy answer'}
      </button>
      {onRegenerate && (
        <button type="button" className="msg-action" onClick={onRegenerate}>
          Regenerate
        </button>
      )}
      <span className="sr-only" role="status">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Could not copy: select the answer and copy it'
            : ''}
      </span>
    </div>
  );
}
