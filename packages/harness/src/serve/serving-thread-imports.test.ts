/**
 * The thread that serves requests lists models but, with the stream worker,
 * streams none of them: its modules do not import the AI SDK, whose code
 * (about 1 MB with zod) every start would otherwise read and compile. Only
 * answers streamed on that thread itself load it, when the first one starts.
 */
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const AI_SDK = /(^|\/)node_modules\/(ai|@ai-sdk\/[^/]+|zod)\//;

/** Every input `entry` imports without waiting, through static imports only. */
function loadedAtOnce(metafile: Metafile, entry: string): Set<string> {
  const loaded = new Set<string>();
  const pending = [entry];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (loaded.has(next)) continue;
    loaded.add(next);
    for (const imported of metafile.inputs[next]?.imports ?? []) {
      if (imported.kind === 'import-statement' || imported.kind === 'require-call') {
        pending.push(imported.path);
      }
    }
  }
  return loaded;
}

it('serve() and the models it lists load none of the AI SDK until an answer streams on its thread', async () => {
  const entry = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['a2a-source'],
    // Native and worker-starting packages stay outside, as in the published build.
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  const start = inputs.find((path) => path.endsWith('src/serve/serve.ts'))!;
  const atOnce = [...loadedAtOnce(result.metafile, start)];
  // With packages external, an import of the AI SDK shows as an external import of a module.
  const aiImports = atOnce.flatMap((path) =>
    (result.metafile.inputs[path]?.imports ?? [])
      .filter((imported) => imported.kind === 'import-statement' && !imported.path.startsWith('.'))
      .filter((imported) => AI_SDK.test(`node_modules/${imported.path}/`))
      .map((imported) => `${path} imports ${imported.path}`),
  );
  expect(aiImports).toEqual([]);
  // The answers streamed in the loop still find it, imported when they start.
  const inLoop = inputs.find((path) => path.endsWith('src/models/model-streams.ts'))!;
  expect(
    result.metafile.inputs[inLoop]!.imports.some(
      (imported) =>
        imported.kind === 'dynamic-import' && imported.path.endsWith('grouped-stream.ts'),
    ),
  ).toBe(true);
});
