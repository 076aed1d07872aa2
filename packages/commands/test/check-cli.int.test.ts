/**
 * `a2a-commands check` run as a real process against agents that lie, refuse
 * or attack: each report must say what happened, and the process must survive.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS_EXTENSION_URI } from 'a2a-commands';
import { startBrokenAgent, type BrokenAgentOptions, type Fault } from './support/broken-agent.js';
import { runCheck } from './support/cli.js';
import type { Listening } from 'a2a-testing/http';
import { closedPort, serve, writeEndless } from './support/hostile.js';

interface JsonResult {
  id: string;
  status: string;
  detail: string;
  binding?: string;
}

const open: Listening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function broken(faults: Fault[] = [], options: BrokenAgentOptions = {}) {
  const agent = await startBrokenAgent(faults, options);
  open.push(agent);
  return agent;
}

async function hostile(handler: Parameters<typeof serve>[0]) {
  const server = await serve(handler);
  open.push(server);
  return server;
}

/** A run with a JSON report; each call gets `timeoutSeconds` (short: the agents here answer at once). */
async function checkJson(args: string[], timeoutSeconds = 5) {
  const run = await runCheck([...args, '--json', '--timeout', String(timeoutSeconds)]);
  if (!run.stdout.startsWith('{')) throw new Error(`no JSON report: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as {
    results: JsonResult[];
    notes?: string[];
    summary: Record<string, number>;
  };
  return { ...run, report, result: (id: string) => report.results.find((r) => r.id === id)! };
}

describe('a command on a working task', () => {
  it('fails an agent that reports input-required while its turn is still streaming', async () => {
    const agent = await broken(['working-state-input-required'], { turnMs: 1500 });
    const { result } = await checkJson([agent.baseUrl]);
    expect(result('command-on-working-task')).toMatchObject({ status: 'fail' });
    expect(result('command-on-working-task').detail).toMatch(/still running|still open/);
  });

  it('skips, saying so, when the turn ended before the command arrived', async () => {
    const agent = await broken([], { turnMs: 0 });
    const { result } = await checkJson([agent.baseUrl]);
    expect(result('command-on-working-task')).toMatchObject({ status: 'skip' });
    expect(result('command-on-working-task').detail).toMatch(/not exercised/);
  });
});

describe('--subtask-command', () => {
  it('takes the command with or without its leading slash', async () => {
    const agent = await broken();
    // Each run makes its own tasks, so the two processes run side by side.
    const [slashed, bare] = await Promise.all([
      checkJson([agent.baseUrl, '--subtask-command', '/delegate do it']),
      checkJson([agent.baseUrl, '--subtask-command', 'fork']),
    ]);
    expect(slashed.result('task-ref')).toMatchObject({ status: 'pass' });
    expect(slashed.result('task-ref').detail).toMatch(/^\/delegate do it gave task_ref /);
    expect(bare.result('task-ref')).toMatchObject({ status: 'pass' });
  });

  it("quotes the agent's refusal when the command made no sub-task", async () => {
    const agent = await broken();
    const { result } = await checkJson([agent.baseUrl, '--subtask-command', '/delegate']);
    expect(result('task-ref')).toMatchObject({ status: 'fail' });
    expect(result('task-ref').detail).toContain('Usage: /delegate <job>: say what to hand over.');
  });
});

describe('card-entry', () => {
  it('reports every problem with the listed commands', async () => {
    const agent = await broken([], {
      card: (card) => {
        const entry = card.capabilities.extensions[0];
        entry.params.commands.push(
          { name: 'Delegate', description: 'Bad name', argument_hint: '' },
          { name: 'help', description: 'Again', argument_hint: '' },
        );
        return card;
      },
    });
    const { result } = await checkJson([agent.baseUrl]);
    expect(result('card-entry').status).toBe('fail');
    expect(result('card-entry').detail).toContain('Delegate');
    expect(result('card-entry').detail).toContain('names listed twice: help');
  });

  it('reports a duplicated entry and the required flag together', async () => {
    const agent = await broken([], {
      card: (card) => {
        const [entry] = card.capabilities.extensions;
        card.capabilities.extensions.push({ ...entry, required: true });
        return card;
      },
    });
    const { result } = await checkJson([agent.baseUrl]);
    expect(result('card-entry').status).toBe('fail');
    expect(result('card-entry').detail).toContain('2 entries');
    expect(result('card-entry').detail).toContain('"required" is true');
  });
});

describe('an agent without the extension', () => {
  it('gets one clear FAIL, not a SKIP per check', async () => {
    const agent = await broken([], {
      card: (card) => ({ ...card, capabilities: { streaming: true, extensions: [] } }),
    });
    const run = await runCheck([agent.baseUrl]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => /^(PASS|FAIL|SKIP) /.test(line))).toEqual([
      `FAIL  card-entry: the card does not claim the Commands extension v1 (${COMMANDS_EXTENSION_URI}), so no command can be checked`,
    ]);
    expect(lines.at(-1)).toBe('0 passed, 1 failed, 0 skipped');
  });
});

describe('unreachable agents', () => {
  it('names the URL and the cause of a refused connection', async () => {
    const port = await closedPort();
    const run = await runCheck([`http://127.0.0.1:${port}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
    expect(run.stderr).toContain('ECONNREFUSED');
    expect(run.stderr).not.toMatch(/^a2a-commands check: fetch failed$/m);
  });
});

describe('bodies are bounded', () => {
  it('stops reading a 1 GiB card at its bound, and says so', async () => {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeEndless(res, '{"name":"');
    });
    const run = await runCheck([server.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the card is larger than 1 MiB, the most the checker reads/);
  });

  it('stops reading huge answers and endless events, and says so', async () => {
    const agent = await broken();
    const card = (await (await fetch(`${agent.baseUrl}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: Array<{ url: string }>;
    };
    const server = await hostile((req, res) => {
      if (req.method === 'GET') {
        card.supportedInterfaces[0]!.url = `http://${req.headers.host}/rpc`;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(card));
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += String(chunk)));
      req.on('end', () => {
        const streaming = body.includes('SendStreamingMessage');
        res.writeHead(200, {
          'content-type': streaming ? 'text/event-stream' : 'application/json',
        });
        writeEndless(res, streaming ? 'data: {"jsonrpc":"2.0","result":"' : '{"jsonrpc":"2.0"');
      });
    });
    // Reading 8 MiB to its bound takes seconds on a loaded machine; the bound, not the time limit, must stop it.
    const { code, result } = await checkJson([server.baseUrl], 60);
    expect(code).toBe(1);
    expect(result('command-new-task')).toMatchObject({ status: 'fail' });
    expect(result('command-new-task').detail).toMatch(/larger than 8 MiB, the most the checker/);
    expect(result('streaming')).toMatchObject({ status: 'fail' });
    expect(result('streaming').detail).toMatch(/larger than 8 MiB, the most the checker/);
  });
});

describe('--api-key', () => {
  async function twoOrigins() {
    const seen: Array<{ where: string; authorization: string | undefined }> = [];
    const agent = await broken([], {
      onRequest: (req) => seen.push({ where: 'agent', authorization: req.headers.authorization }),
    });
    const card = await (await fetch(`${agent.baseUrl}/.well-known/agent-card.json`)).text();
    const front = await hostile((req, res) => {
      seen.push({ where: 'card', authorization: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end(card);
    });
    return { seen, front, agent };
  }

  it('goes only to the origin the user named', async () => {
    const { seen, front, agent } = await twoOrigins();
    const { report } = await checkJson([front.baseUrl, '--api-key', 'secret-key']);
    expect(seen.filter((s) => s.where === 'card').map((s) => s.authorization)).toEqual([
      'Bearer secret-key',
    ]);
    const atAgent = seen.filter((s) => s.where === 'agent');
    expect(atAgent.length).toBeGreaterThan(0);
    expect(atAgent.every((s) => s.authorization === undefined)).toBe(true);
    expect(report.notes).toEqual([
      `--api-key was not sent to ${agent.baseUrl}, which is not the origin named on the command line (--api-key-any-origin sends it there)`,
    ]);
  });

  it("goes to the card's other origins with --api-key-any-origin", async () => {
    const { seen, front } = await twoOrigins();
    const { report } = await checkJson([
      front.baseUrl,
      '--api-key',
      'secret-key',
      '--api-key-any-origin',
    ]);
    // The test's own read of the card, before the checker ran, carried no key.
    const atAgent = seen.filter((s) => s.where === 'agent').slice(1);
    expect(atAgent.length).toBeGreaterThan(0);
    expect(atAgent.every((s) => s.authorization === 'Bearer secret-key')).toBe(true);
    expect(report.notes ?? []).toEqual([]);
  });
});
