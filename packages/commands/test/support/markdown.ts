/** The ```ts blocks of a Markdown text, with the line each starts on. */
export function typescriptBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return blocks;
}
