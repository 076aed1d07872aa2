import type { ListSessionsRequest, ListSessionsResponse } from '@agentclientprotocol/sdk';
import { commandRequestOptions } from 'a2a-commands/client';
import type { A2AAgent } from './a2a-agent.js';

/** Sessions listed per page: one ListTasks page. */
const PAGE_SIZE = 50;

/**
 * `session/list`: the agent's tasks for this caller (ListTasks), newest
 * first as the agent orders them, each a session `session/load` opens. Tasks
 * belong to no folder, so each is listed under the folder the editor asks about.
 */
export async function listSessions(
  agent: A2AAgent,
  request: ListSessionsRequest,
): Promise<ListSessionsResponse> {
  const page = await agent.client.listTasks(
    {
      tenant: '',
      contextId: '',
      status: 0,
      pageSize: PAGE_SIZE,
      pageToken: request.cursor ?? '',
      historyLength: 0,
      statusTimestampAfter: undefined,
      includeArtifacts: false,
    },
    commandRequestOptions(),
  );
  return {
    sessions: page.tasks.map((task) => ({
      sessionId: task.id,
      cwd: request.cwd ?? '/',
      updatedAt: task.status?.timestamp || null,
    })),
    nextCursor: page.nextPageToken || null,
  };
}
