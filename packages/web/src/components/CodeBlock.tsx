import { Children, isValidElement, type ComponentProps, type ReactNode } from 'react';
import { useCopy } from '../state/use-copy.js';

/** The plain text of rendered children: what the copy button puts on the clipboard. */
export function textOfChildren(children: ReactNode): string {
  return Children.toArray(children)
    .map((child) => {
      if (typeof child === 'string' || typeof child === 'number') return String(child);
      if (isValidElement<{ children?: ReactNode }>(child))
        return textOfChildren(child.props.children);
      return '';
    })
    .join('');
}

/**
 * A fenced code block with a Copy button. The button is an ordinary button
 * (Tab reaches it, Enter and Space press it), and a polite status line says
 * "Copied" so a screen reader hears that it worked.
 */
export function CodeBlock({
  node: _node,
  children,
  ...rest
}: ComponentProps<'pre'> & { node?: unknown }) {
  const { state, copy } = useCopy();
  const code = textOfChildren(children).replace(/\n$/, '');
  const language = languageOf(children);

  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-lang">{language ?? 'code'}</span>
        <button
          type="button"
          className="code-copy"
          aria-label={state === 'copied' ? 'Copied code' : 'Copy code'}
          onClick={() => void copy(code)}
        >
          {state === 'copied' ? 'Copied' : 'Copy'}
        </button>
        <span className="sr-only" role="status">
          {state === 'copied'
            ? 'Copied'
            : state === 'failed'
              ? 'Could not copy: select the code and copy it'
              : ''}
        </span>
      </div>
      <pre {...rest}>{children}</pre>
    </div>
  );
}

/** ```ts gives the inner <code> the class `language-ts`. */
function languageOf(children: ReactNode): string | undefined {
  for (const child of Children.toArray(children)) {
    if (!isValidElement<{ className?: string }>(child)) continue;
    const match = /(?:^|\s)language-(\S+)/.exec(child.props.className ?? '');
    if (match) return match[1];
  }
  return undefined;
}
