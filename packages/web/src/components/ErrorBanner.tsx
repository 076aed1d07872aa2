import type { Problem } from '../a2a/errors.js';

/** A problem shown where it happened, with what can be done about it. */
export function ErrorBanner({
  problem,
  onRetry,
  onDismiss,
  action,
  className = '',
}: {
  problem: Problem;
  onRetry?: () => void;
  onDismiss?: () => void;
  /** What fixes it, when that is somewhere else on the page (the API key field, say). */
  action?: { label: string; onClick: () => void };
  className?: string;
}) {
  return (
    <div className={`error-banner ${className}`.trim()} role="alert">
      <svg className="error-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
        <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M10 5.75v5.5" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
        <circle cx="10" cy="14.25" r="1.1" fill="currentColor" />
      </svg>
      <div className="error-text">
        <strong className="error-title">{problem.title}</strong>
        <span className="error-detail">{problem.detail}</span>
      </div>
      {(action || onRetry || onDismiss) && (
        <div className="error-actions">
          {action && (
            <button type="button" className="button button--small" onClick={action.onClick}>
              {action.label}
            </button>
          )}
          {onRetry && (
            <button type="button" className="button button--small" onClick={onRetry}>
              Retry
            </button>
          )}
          {onDismiss && (
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss the error"
              onClick={onDismiss}
            >
              <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
                <path
                  d="m5 5 10 10M15 5 5 15"
                  stroke="currentColor"
                  strokeWidth="1.75"
                  strokeLinecap="round"
                />
              </svg>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
