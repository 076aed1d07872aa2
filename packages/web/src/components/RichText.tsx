import { splitBlocks, splitInlineCode } from './rich-text.js';

/** Model output: paragraphs with their line breaks, `inline code`, and fenced code blocks. */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {splitBlocks(text).map((block, i) =>
        block.kind === 'code' ? (
          <pre key={i} className="code-block" data-lang={block.lang || undefined}>
            <code>{block.text}</code>
          </pre>
        ) : (
          <p key={i} className="prose">
            {splitInlineCode(block.text).map((piece, j) =>
              j % 2 === 1 ? <code key={j}>{piece}</code> : piece,
            )}
          </p>
        ),
      )}
    </>
  );
}
