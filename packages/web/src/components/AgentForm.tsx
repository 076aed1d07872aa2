import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isApiKeyText } from '../a2a/api-key.js';
import { isAgentUrl, normalizeAgentUrl } from '../a2a/agent-url.js';
import type { Problem } from '../a2a/errors.js';
import type { AgentStatus } from '../state/use-agent.js';

/**
 * Which agent the page talks to: its own origin by default, or any URL that
 * allows CORS; and the API key for it, if it needs one. The key field holds
 * the key kept for the URL in the URL field, so a key typed for one agent is
 * never sent to another unless typed again.
 */
export function AgentForm({
  url,
  status,
  offline = false,
  apiKey,
  keyProblem,
  keyRequired = false,
  focusKey = 0,
  keyFor,
  onConnect,
  onForgetKey,
}: {
  url: string;
  status: AgentStatus;
  /** The agent was connected, and does not answer now: it is being tried again. */
  offline?: boolean;
  /** The key in use for `url`. */
  apiKey?: string;
  /** The agent needs a key and has none, or refused the one sent. */
  keyProblem?: Problem['apiKey'];
  /** The agent's card asks for a key on every call. */
  keyRequired?: boolean;
  /** Each increment moves focus to the key field. */
  focusKey?: number;
  /** The key kept for another agent URL. */
  keyFor: (url: string) => string | undefined;
  onConnect: (url: string, apiKey: string | undefined) => void;
  onForgetKey: () => void;
}) {
  const id = useId();
  const keyField = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(url);
  const [keyDraft, setKeyDraft] = useState(apiKey ?? '');
  // A key typed by hand stays when the URL changes; a kept one follows the URL.
  const [keyTyped, setKeyTyped] = useState(false);
  const [invalid, setInvalid] = useState<'url' | 'key'>();

  useEffect(() => {
    setDraft(url);
    setKeyDraft(apiKey ?? '');
    setKeyTyped(false);
  }, [url, apiKey]);

  useEffect(() => {
    if (focusKey === 0) return;
    keyField.current?.focus();
    keyField.current?.select();
  }, [focusKey]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = keyDraft.trim();
    if (!isAgentUrl(draft)) {
      setInvalid('url');
      return;
    }
    if (key !== '' && !isApiKeyText(key)) {
      setInvalid('key');
      return;
    }
    setInvalid(undefined);
    onConnect(normalizeAgentUrl(draft), key || undefined);
  };

  const changeUrl = (value: string) => {
    setDraft(value);
    setInvalid(undefined);
    if (keyTyped) return;
    const next = normalizeAgentUrl(value);
    setKeyDraft((next === url ? apiKey : keyFor(next)) ?? '');
  };

  const forget = () => {
    onForgetKey();
    setKeyDraft('');
    setKeyTyped(false);
    keyField.current?.focus();
  };

  const line =
    invalid === 'url'
      ? 'Enter an http:// or https:// URL.'
      : invalid === 'key'
        ? 'An API key is letters, digits and symbols, without spaces.'
        : keyProblem === 'missing'
          ? 'This agent needs an API key.'
          : keyProblem === 'refused'
            ? 'The agent refused this API key.'
            : status.kind === 'ready' && offline
              ? `Reconnecting to ${status.session.card.name}…`
              : status.kind === 'ready'
                ? `Connected to ${status.session.card.name}${apiKey ? ' with an API key' : ''}`
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
          aria-invalid={invalid === 'url' || undefined}
          aria-describedby={`${id}status`}
          onChange={(event) => changeUrl(event.target.value)}
        />
        <button type="submit" className="button button--small">
          Connect
        </button>
      </div>
      <label htmlFor={`${id}key`} className="agent-label">
        API key
      </label>
      <div className="agent-row">
        <input
          ref={keyField}
          id={`${id}key`}
          className="agent-input"
          type="password"
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          value={keyDraft}
          aria-invalid={invalid === 'key' || keyProblem !== undefined || undefined}
          aria-describedby={`${id}keyhelp ${id}status`}
          onChange={(event) => {
            setKeyDraft(event.target.value);
            setKeyTyped(true);
            setInvalid(undefined);
          }}
        />
        {apiKey && (
          <button type="button" className="button button--small" onClick={forget}>
            Forget key
          </button>
        )}
      </div>
      <p id={`${id}keyhelp`} className="agent-help">
        {keyRequired ? 'Required' : 'Optional'}. Sent as a bearer token to this agent only, and kept
        until this tab closes.
      </p>
      <p
        id={`${id}status`}
        className={`agent-status agent-status--${keyProblem ? 'failed' : offline && status.kind === 'ready' ? 'reconnecting' : status.kind}`}
        role="status"
      >
        <span className="agent-dot" aria-hidden="true" />
        {line}
      </p>
    </form>
  );
}
