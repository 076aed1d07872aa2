import { useEffect, useId, useState, type FormEvent } from 'react';
import { isAgentUrl, normalizeAgentUrl } from '../a2a/agent-url.js';
import type { AgentStatus } from '../state/use-agent.js';

/** Which agent the page talks to: its own origin by default, or any URL that allows CORS. */
export function AgentForm({
  url,
  status,
  onConnect,
}: {
  url: string;
  status: AgentStatus;
  onConnect: (url: string) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(url);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => setDraft(url), [url]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isAgentUrl(draft)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    onConnect(normalizeAgentUrl(draft));
  };

  const line =
    status.kind === 'ready'
      ? `Connected to ${status.session.card.name}`
      : status.kind === 'connecting'
        ? 'Connecting…'
        : 'Not connected';

  return (
    <form className="agent-form" onSubmit={submit}>
      <label htmlFor={`${id}url`} className="agent-label">
        Agent URL
      </label>
      <div className="agent-row">
        <input
          id={`${id}url`}
          className="agent-input"
          type="url"
          inputMode="url"
          spellCheck={false}
          autoComplete="url"
          value={draft}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}status`}
          onChange={(event) => {
            setDraft(event.target.value);
            setInvalid(false);
          }}
        />
        <button type="submit" className="button button--small">
          Connect
        </button>
      </div>
      <p id={`${id}status`} className={`agent-status agent-status--${status.kind}`}>
        <span className="agent-dot" aria-hidden="true" />
        {invalid ? 'Enter an http:// or https:// URL.' : line}
      </p>
    </form>
  );
}
