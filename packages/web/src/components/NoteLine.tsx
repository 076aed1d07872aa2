import type { DividerEntry, NoteEntry } from '../a2a/transcript.js';

/** A note: words for the user from the agent (a model error) or from the chat, not model output. */
export function NoteLine({ entry }: { entry: NoteEntry }) {
  return (
    <div className={`msg msg--agent msg--note msg--note-${entry.tone}`}>
      <span className="sr-only">
        {entry.from === 'agent' ? 'Note from the agent: ' : 'Note from the chat: '}
      </span>
      <div className="bubble bubble--agent">
        <p>{entry.text}</p>
      </div>
    </div>
  );
}

/** After `/clear`: the model's context starts below this line. */
export function Divider({ entry }: { entry: DividerEntry }) {
  return (
    <div className="divider" role="separator" aria-label={entry.text}>
      <span className="divider-text">{entry.text}</span>
    </div>
  );
}
