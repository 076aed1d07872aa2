import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, expect, it } from 'vitest';
import type { TaskRow } from '../src/a2a/task-list.js';
import { Sidebar } from '../src/components/Sidebar.js';

/* Searching the task list, and hiding tasks from it (and showing them again). */

afterEach(cleanup);

const row = (id: string, title: string, depth = 0): TaskRow => ({
  id,
  contextId: 'c1',
  title,
  depth,
  updated: 0,
});
const ROWS = [row('t1', 'Plan the trip'), row('t2', 'Write a poem', 1), row('t3', 'Trip budget')];

function Harnessed() {
  const [hidden, setHiddenSet] = useState<ReadonlySet<string>>(new Set());
  return (
    <Sidebar
      id="sidebar"
      rows={ROWS}
      status={{ kind: 'connecting' }}
      agentUrl="http://127.0.0.1:8080"
      agentForm={null}
      open={false}
      onNewChat={() => {}}
      onClose={() => {}}
      hidden={hidden}
      onHide={(id, hide) =>
        setHiddenSet((current) => {
          const next = new Set(current);
          if (hide) next.add(id);
          else next.delete(id);
          return next;
        })
      }
    />
  );
}

const titles = () =>
  [...document.querySelectorAll('.task-link .task-title')].map((title) => title.textContent);

it('filters the tasks by the words typed in Search', async () => {
  const user = userEvent.setup();
  render(<Harnessed />);
  await user.type(screen.getByRole('searchbox', { name: 'Search tasks' }), 'TRIP');
  expect(titles()).toEqual(['Plan the trip', 'Trip budget']);
  await user.clear(screen.getByRole('searchbox', { name: 'Search tasks' }));
  expect(titles()).toHaveLength(3);
});

it('hides a task from the list, and shows it again on request', async () => {
  const user = userEvent.setup();
  render(<Harnessed />);
  await user.click(screen.getByRole('button', { name: 'Hide "Write a poem"' }));
  expect(titles()).toEqual(['Plan the trip', 'Trip budget']);

  await user.click(screen.getByRole('button', { name: 'Show 1 hidden' }));
  const shown = screen.getByRole('list', { name: 'Hidden tasks' });
  expect(within(shown).getByText('Write a poem')).toBeTruthy();
  await user.click(within(shown).getByRole('button', { name: 'Unhide "Write a poem"' }));
  expect(titles()).toHaveLength(3);
});
