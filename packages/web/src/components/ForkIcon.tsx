/** Two lines parting from one: a fork goes its own way. */
export function ForkIcon() {
  return (
    <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
      <path
        d="M5 2.5v4.5c0 1.7 1.3 3 3 3h0c1.7 0 3-1.3 3-3V2.5M8 10v3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
    </svg>
  );
}
