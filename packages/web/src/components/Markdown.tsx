import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CodeBlock } from './CodeBlock.js';

/*
 * Model output as Markdown (CommonMark and GitHub's tables, task lists and
 * strikethrough). react-markdown builds React elements, never HTML strings:
 * raw HTML in a reply shows as text, and its default URL rule drops
 * `javascript:` and other unsafe link targets.
 */

/** A link in model output opens in a new tab, with no handle back to this page. */
function SafeLink({
  node: _node,
  href,
  children,
  ...rest
}: ComponentProps<'a'> & { node?: unknown }) {
  if (!href) return <span>{children}</span>;
  return (
    <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** A table scrolls sideways inside the bubble instead of widening it. */
function ScrollingTable({ node: _node, ...rest }: ComponentProps<'table'> & { node?: unknown }) {
  return (
    <div className="md-table">
      <table {...rest} />
    </div>
  );
}

const components: Components = {
  a: SafeLink,
  pre: CodeBlock,
  table: ScrollingTable,
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
