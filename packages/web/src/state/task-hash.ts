/*
 * The open task lives in the URL's hash (`#task=<id>`): links to sub-tasks are
 * plain links, the browser's Back goes back to the parent, and a reload keeps
 * the view.
 */

const PREFIX = '#task=';

export function taskHref(id: string): string {
  return `${PREFIX}${encodeURIComponent(id)}`;
}

export function taskIdFromHash(hash: string): string | undefined {
  if (!hash.startsWith(PREFIX)) return undefined;
  const id = decodeURIComponent(hash.slice(PREFIX.length)).trim();
  return id === '' ? undefined : id;
}
