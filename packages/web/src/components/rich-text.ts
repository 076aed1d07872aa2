/*
 * Just enough structure for model output: fenced code blocks and inline code.
 * Everything else stays plain text with its line breaks; nothing is ever
 * turned into HTML, so a reply cannot inject markup.
 */

export type Block = { kind: 'text'; text: string } | { kind: 'code'; text: string; lang: string };

/** Splits text at ``` fences. An unclosed fence (a stream still coming in) runs to the end. */
export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const fence = /^```([^\n`]*)\n?/m;
  let rest = text;
  for (;;) {
    const open = fence.exec(rest);
    if (!open) break;
    const before = rest.slice(0, open.index);
    if (before.trim() !== '') blocks.push({ kind: 'text', text: before.replace(/\n+$/, '') });
    const body = rest.slice(open.index + open[0].length);
    const close = /^```[ \t]*$/m.exec(body);
    const code = close ? body.slice(0, close.index) : body;
    blocks.push({ kind: 'code', text: code.replace(/\n$/, ''), lang: open[1]!.trim() });
    rest = close ? body.slice(close.index + close[0].length).replace(/^\n/, '') : '';
  }
  if (rest.trim() !== '' || blocks.length === 0) blocks.push({ kind: 'text', text: rest });
  return blocks;
}

/** Splits a line of text at `inline code` spans: odd indexes are code. */
export function splitInlineCode(text: string): string[] {
  return text.split(/`([^`\n]+)`/);
}
