/**
 * The rule as the repository's ESLint configuration runs it: a relative
 * import that leaves its package is an error, one that stays inside is not.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repository = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: repository });

async function crossings(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repository, file) });
  return result!.messages
    .filter((message) => message.ruleId === 'a2a/no-cross-package-import')
    .map((message) => message.message);
}

describe('a2a/no-cross-package-import', () => {
  it("refuses an import from a package's test helpers into another package", async () => {
    const found = await crossings(
      'packages/web/test/e2e/example.e2e.test.ts',
      "import { startHarness } from '../../../harness/test/support/harness.js';\nstartHarness();\n",
    );
    expect(found).toEqual([
      "'../../../harness/test/support/harness.js' reaches into another package (packages/harness): import it by its package name, from what that package exports.",
    ]);
  });

  it("refuses a re-export of another package's file, and a dynamic import of one", async () => {
    expect(
      await crossings(
        'packages/harness/test/support/http.ts',
        "export * from '../../../commands/test/support/http.js';\n",
      ),
    ).toHaveLength(1);
    expect(
      await crossings(
        'packages/harness/src/serve/example.ts',
        "export const load = () => import('../../../web/src/main.js');\n",
      ),
    ).toHaveLength(1);
  });

  it('refuses bench reaching into a package, and a package reaching into bench', async () => {
    expect(
      await crossings(
        'bench/example.ts',
        "import { x } from '../packages/harness/src/index.js';\nexport { x };\n",
      ),
    ).toHaveLength(1);
    expect(
      await crossings(
        'packages/harness/test/example.test.ts',
        "import { runSoak } from '../../../bench/soak/run-soak.js';\nrunSoak();\n",
      ),
    ).toHaveLength(1);
  });

  it('allows relative imports inside a package, and imports by package name', async () => {
    expect(
      await crossings(
        'packages/harness/test/example.test.ts',
        [
          "import { webUiRoutes } from '../src/serve/web-ui.js';",
          "import { startHarness } from 'a2a-testing/harness';",
          "import { COMMANDS_EXTENSION_URI } from 'a2a-commands';",
          'webUiRoutes(); startHarness(); void COMMANDS_EXTENSION_URI;',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
