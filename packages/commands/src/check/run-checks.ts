/* eslint-disable @typescript-eslint/no-explicit-any -- the checker reads an unknown agent's raw wire JSON, which it checks field by field */
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { readCommands } from '../client/card.js';
import { COMMAND_NAME_PATTERN, COMMANDS_EXTENSION_URI, type CommandSpec } from '../spec.js';
import {
  CHECKS,
  COMPLETION_CHECK,
  CheckFailed,
  CheckSkipped,
  probeCommand,
  type Check,
} from './checks.js';
import { EXTENDED_CARD_CHECK } from './extended-card.js';
import { CARD_MAX_BYTES, CheckerHttp } from './http.js';
import { AgentError } from './wire.js';
import { wiresFor } from './wires-for.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  id: string;
  title: string;
  /** The binding the check ran over; absent for checks of the card. */
  binding?: string;
  status: CheckStatus;
  /** What was seen, or why it failed or was skipped. */
  detail: string;
  needsModel: boolean;
}

export interface CheckReport {
  url: string;
  agent?: { name?: string; version?: string };
  bindings: string[];
  probe?: string;
  /** What the reader should know beyond the results: where the API key was withheld. */
  notes: string[];
  results: CheckResult[];
  summary: Record<CheckStatus, number>;
}

export interface CheckOptions {
  /** Sent as a bearer token, only to the origin of the URL checked unless `apiKeyAnyOrigin`. */
  apiKey?: string;
  /** Also send the key to the other origins the card names. */
  apiKeyAnyOrigin?: boolean;
  /** Skip the checks that need a model turn. */
  noModel?: boolean;
  /** A command (with arguments, with or without its `/`) that creates a sub-task; `fork` when the card lists it. */
  subtaskCommand?: string;
  /** Per call, in ms; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Called as each result is known. */
  onResult?: (result: CheckResult) => void;
}

/** The card's URL for an agent's base URL, or the URL itself when it already names a card. */
export function cardUrl(url: string): string {
  if (url.endsWith('.json')) return url;
  return `${url.replace(/\/+$/, '')}/${AGENT_CARD_PATH}`;
}

/** Audits the agent at `url` against the Commands extension v1. */
export async function checkAgent(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  const results: CheckResult[] = [];
  const record = (result: CheckResult) => {
    results.push(result);
    options.onResult?.(result);
  };
  const target = cardUrl(url);
  let keyOrigin: string;
  try {
    keyOrigin = new URL(target).origin;
  } catch {
    throw new Error(`${JSON.stringify(url)} is not a URL`);
  }
  const http = new CheckerHttp({
    apiKey: options.apiKey,
    apiKeyAnyOrigin: options.apiKeyAnyOrigin,
    keyOrigin,
    timeoutMs: options.timeoutMs ?? 30_000,
    fetch: options.fetch,
  });
  const card = await readCard(http, target);
  const wires = wiresFor(card, http);
  const report = (probe?: string): CheckReport => {
    const summary = { pass: 0, fail: 0, skip: 0 };
    for (const result of results) summary[result.status]++;
    return {
      url,
      agent: { name: card?.name, version: card?.version },
      bindings: wires.map((wire) => wire.binding),
      probe,
      notes: [...http.withheldFrom].map(
        (origin) =>
          `--api-key was not sent to ${origin}, which is not the origin named on the command line (--api-key-any-origin sends it there)`,
      ),
      results,
      summary,
    };
  };
  if (!claimsCommands(card)) {
    // Every other check would only skip for want of a command: one clear failure says it all.
    record({
      id: 'card-entry',
      title: CHECKS[0]!.title,
      status: 'fail',
      detail: `the card does not claim the Commands extension v1 (${COMMANDS_EXTENSION_URI}), so no command can be checked`,
      needsModel: false,
    });
    return report();
  }
  const commands = readCommands(card);
  // A card that breaks the schema fails card-entry; the other checks still probe what it lists.
  if (commands.length === 0) commands.push(...listedLeniently(card));
  const probe = probeCommand(commands);
  const subtaskCommand =
    options.subtaskCommand?.trim().replace(/^\//, '') ??
    (commands.some((command) => command.name === 'fork') ? 'fork' : undefined);

  const post = async (target: string, body: unknown) => {
    const answer = await http.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await http.text(answer, `the answer from ${target}`);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text.slice(0, 200);
    }
    return { status: answer.status, body: parsed as any };
  };

  const run = async (check: Check, binding?: string) => {
    const base = {
      id: check.id,
      title: check.title,
      binding,
      needsModel: check.needsModel === true,
    };
    if (check.needsModel && options.noModel) {
      record({ ...base, status: 'skip', detail: 'needs a model turn (--no-model)' });
      return;
    }
    const wire = binding ? wires.find((candidate) => candidate.binding === binding)! : wires[0];
    if (!wire) {
      record({
        ...base,
        status: 'fail',
        detail: 'the card offers none of JSONRPC, HTTP+JSON and GRPC',
      });
      return;
    }
    try {
      const keyed = options.apiKey !== undefined && options.apiKey !== '';
      const detail = await check.run({ card, wire, probe, subtaskCommand, post, keyed });
      record({ ...base, status: 'pass', detail });
    } catch (error) {
      if (error instanceof CheckSkipped) record({ ...base, status: 'skip', detail: error.message });
      else if (error instanceof CheckFailed)
        record({ ...base, status: 'fail', detail: error.message });
      else if (error instanceof AgentError) {
        record({
          ...base,
          status: 'fail',
          detail: `the agent answered error ${error.code}: ${error.message}`,
        });
      } else record({ ...base, status: 'fail', detail: `error: ${(error as Error).message}` });
    }
  };

  for (const check of [...CHECKS, COMPLETION_CHECK].filter((c) => c.perBinding === false)) {
    await run(check);
  }
  for (const wire of wires) {
    for (const check of [...CHECKS, EXTENDED_CARD_CHECK].filter((c) => c.perBinding !== false))
      await run(check, wire.binding);
  }
  return report(probe && `/${probe.name}`);
}

async function readCard(http: CheckerHttp, target: string): Promise<any> {
  const response = await http.request(target, { method: 'GET' });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`GET ${target} answered HTTP ${response.status}`);
  }
  let text: string;
  try {
    text = await http.text(response, 'the card', CARD_MAX_BYTES);
  } catch (error) {
    throw new Error(`GET ${target}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`GET ${target}: the card is not JSON (${(error as Error).message})`);
  }
}

function claimsCommands(card: any): boolean {
  const extensions: unknown = card?.capabilities?.extensions;
  return Array.isArray(extensions) && extensions.some((ext) => ext?.uri === COMMANDS_EXTENSION_URI);
}

/** The commands a card lists, read without the schema: names that could be commands. */
function listedLeniently(card: any): CommandSpec[] {
  const extensions: any[] = Array.isArray(card?.capabilities?.extensions)
    ? card.capabilities.extensions
    : [];
  const entry = extensions.find((ext) => ext?.uri === COMMANDS_EXTENSION_URI);
  const listed: any[] = Array.isArray(entry?.params?.commands) ? entry.params.commands : [];
  return listed
    .filter((c) => typeof c?.name === 'string' && COMMAND_NAME_PATTERN.test(c.name))
    .map((c) => ({
      name: c.name,
      description: String(c.description ?? ''),
      argument_hint: typeof c.argument_hint === 'string' ? c.argument_hint : '',
    }));
}
