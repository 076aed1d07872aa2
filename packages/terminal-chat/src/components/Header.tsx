/** @jsxRuntime automatic */
import { Box, Text } from 'ink';
import { HOME, shortId, stateWords, type TaskView } from '../views.js';

export interface HeaderProps {
  agentName: string;
  url: string;
  view: TaskView;
  width: number;
  /** Set while the agent does not answer: why. */
  offline?: string;
}

/** One line: the agent's name, where it is, and the task on screen. */
export function Header({ agentName, url, view, width, offline }: HeaderProps) {
  const task = view.taskId
    ? `task ${shortId(view.taskId)} · ${stateWords(view.state)}`
    : 'new conversation';
  return (
    <Box width={width} flexShrink={0}>
      <Text wrap="truncate-end">
        <Text color="green" bold>
          ◆ {agentName}
        </Text>
        <Text dimColor> · {url} · </Text>
        {offline !== undefined && <Text color="yellow">not answering, reconnecting… · </Text>}
        {view.key === HOME ? (
          <Text dimColor>{task}</Text>
        ) : (
          <Text color="blue">sub-task view · {task}</Text>
        )}
      </Text>
    </Box>
  );
}
