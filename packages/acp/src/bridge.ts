import {
  agent as acpAgent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentConnection,
} from '@agentclientprotocol/sdk';
import { readCommands, type CommandSpec } from 'a2a-commands/client';
import { CardWatch } from 'a2a-chat-core';
import { adoptCard, connectAgent, type A2AAgent } from './a2a-agent.js';
import { availableCommands } from './available-commands.js';
import { acpError, describeError } from './errors.js';
import { BridgeSession } from './session.js';
import { listSessions } from './session-list.js';

export interface BridgeOptions {
  /** The A2A agent's base URL (its card is at `/.well-known/agent-card.json`). */
  agentUrl: string;
  /** Sent only if the card asks for a key, and only to the agent's origin. */
  apiKey?: string;
  /** Where ACP comes in and goes out: stdin and stdout for an editor. */
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  /** How often the card is read again; the chats' period by default. */
  cardRefreshMs?: number;
  /** How long an agent may stay unreachable mid-answer before the prompt fails. */
  giveUpAfterMs?: number;
  /** How long a canceled answer may take to end before the bridge stops reading it. */
  cancelGraceMs?: number;
  /** Where diagnostics go: never stdout, which carries only the protocol. */
  log?: (line: string) => void;
}

export const BRIDGE_NAME = 'a2a-acp';
export const BRIDGE_VERSION = '0.1.0';

const DEFAULT_GIVE_UP_MS = 30_000;
const DEFAULT_CANCEL_GRACE_MS = 5_000;

/**
 * An ACP agent that fronts one A2A agent: the editor's sessions are the A2A
 * agent's tasks, its slash commands are the card's. The A2A agent is reached
 * at the first session, so that a failure there reaches the editor as an ACP
 * error it can show, rather than as a bridge that exits.
 */
export function startBridge(options: BridgeOptions): AgentConnection {
  const log = options.log ?? ((line: string) => process.stderr.write(`${BRIDGE_NAME}: ${line}\n`));
  const sessions = new Map<string, BridgeSession>();
  let linking: Promise<{ agent: A2AAgent; watch: CardWatch }> | undefined;
  let commands: readonly CommandSpec[] = [];

  const announceCommands = (sessionId: string) =>
    connection.client.notify(methods.client.session.update, {
      sessionId,
      update: {
        sessionUpdate: 'available_commands_update',
        availableCommands: availableCommands(commands),
      },
    });

  // After the response that names the session: an editor drops updates for a session it does not know yet.
  const announceSoon = (sessionId: string) =>
    setTimeout(() => {
      announceCommands(sessionId).catch((error: unknown) => log(describeError(error)));
    }, 0);

  const link = () => {
    linking ??= connectAgent(options.agentUrl, options.apiKey).then(
      (agent) => {
        commands = readCommands(agent.card);
        const watch = new CardWatch({
          url: agent.url,
          etag: agent.etag,
          refreshMs: options.cardRefreshMs,
          changed: (card) => {
            adoptCard(agent, card).then(
              (changed) => {
                if (!changed) return;
                commands = changed;
                log(`the card lists ${changed.length} commands now`);
                for (const sessionId of sessions.keys()) announceSoon(sessionId);
              },
              (error: unknown) => log(`cannot read the extended card: ${describeError(error)}`),
            );
          },
          reachable: (error) =>
            log(
              error === undefined
                ? 'the agent answers again'
                : `cannot read the card: ${describeError(error)}`,
            ),
        });
        watch.start();
        connection.closed.finally(() => watch.close());
        return { agent, watch };
      },
      (error: unknown) => {
        // The next session tries again: the agent may be up by then.
        linking = undefined;
        throw acpError(error, options.agentUrl);
      },
    );
    return linking;
  };

  const openSession = (sessionId: string, agent: A2AAgent) => {
    sessions.get(sessionId)?.close();
    const session = new BridgeSession({
      agent,
      commands: () => commands,
      notify: (update) =>
        connection.client.notify(methods.client.session.update, { sessionId, update }),
      giveUpAfterMs: options.giveUpAfterMs ?? DEFAULT_GIVE_UP_MS,
      cancelGraceMs: options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
      log,
    });
    sessions.set(sessionId, session);
    return session;
  };

  const sessionOf = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  };

  const app = acpAgent({ name: BRIDGE_NAME })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {} },
        promptCapabilities: { image: true, audio: true, embeddedContext: true },
      },
      agentInfo: { name: BRIDGE_NAME, title: 'A2A agent', version: BRIDGE_VERSION },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async () => {
      const { agent } = await link();
      const sessionId = crypto.randomUUID();
      openSession(sessionId, agent);
      announceSoon(sessionId);
      return { sessionId };
    })
    .onRequest(methods.agent.session.load, async ({ params }) => {
      const { agent } = await link();
      // A session of this connection names its task; any other id is a task id.
      const taskId = sessions.get(params.sessionId)?.taskId ?? params.sessionId;
      let task;
      try {
        task = await agent.client.getTask({ tenant: '', id: taskId, historyLength: undefined });
      } catch (error) {
        throw acpError(error, agent.url);
      }
      const session = openSession(params.sessionId, agent);
      session.load(task);
      await session.flushed();
      announceSoon(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const { agent } = await link();
      try {
        return await listSessions(agent, params);
      } catch (error) {
        throw acpError(error, agent.url);
      }
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = sessionOf(params.sessionId);
      const { agent, watch } = await link();
      void watch.check();
      try {
        return { stopReason: await session.prompt(params.prompt) };
      } catch (error) {
        log(`prompt failed: ${describeError(error)}`);
        throw acpError(error, agent.url);
      }
    })
    .onNotification(methods.agent.session.cancel, async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  const connection: AgentConnection = app.connect(ndJsonStream(options.output, options.input));
  void connection.closed.finally(() => {
    for (const session of sessions.values()) session.close();
  });
  return connection;
}
