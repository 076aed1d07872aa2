import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentForm } from '../src/components/AgentForm.js';

afterEach(cleanup);

const AGENT = 'http://127.0.0.1:8080';
const OTHER = 'http://127.0.0.1:4000';
const KEY = 'alice-key-0123456789abcdef';

function setup(props: Partial<ComponentProps<typeof AgentForm>> = {}) {
  const user = userEvent.setup();
  const onConnect = vi.fn();
  const onForgetKey = vi.fn();
  const all = {
    url: AGENT,
    status: { kind: 'connecting' } as const,
    keyFor: () => undefined,
    onConnect,
    onForgetKey,
    ...props,
  };
  const view = render(<AgentForm {...all} />);
  const keyField = screen.getByLabelText('API key') as HTMLInputElement;
  const urlField = screen.getByLabelText('Agent URL') as HTMLInputElement;
  const rerender = (more: Partial<ComponentProps<typeof AgentForm>>) =>
    view.rerender(<AgentForm {...all} {...more} />);
  return { user, onConnect, onForgetKey, keyField, urlField, container: view.container, rerender };
}

const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the API key field', () => {
  it('is a password field, labelled, described as a bearer token for this agent only', () => {
    const { keyField } = setup();
    expect(keyField.type).toBe('password');
    expect(keyField.value).toBe('');
    expect(descriptionOf(keyField)).toContain('bearer token to this agent only');
    expect(descriptionOf(keyField)).toContain('Optional');
  });

  it('Connect sends the URL and the key; a blank key is no key', async () => {
    const { user, keyField, onConnect } = setup();
    await user.type(keyField, `  ${KEY} `);
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(onConnect).toHaveBeenLastCalledWith(AGENT, KEY);

    await user.clear(keyField);
    await user.type(keyField, '{Enter}');
    expect(onConnect).toHaveBeenLastCalledWith(AGENT, undefined);
  });

  it('holds the kept key, without ever showing it as text', () => {
    const { keyField, container } = setup({
      apiKey: KEY,
      status: { kind: 'failed', problem: { title: 't', detail: 'd', unreachable: false } },
    });
    expect(keyField.value).toBe(KEY);
    expect(container.textContent).not.toContain(KEY);
  });

  it('does not carry a kept key to another agent URL; each URL brings its own', async () => {
    const kept: Record<string, string> = { [OTHER]: 'other-key' };
    const { user, keyField, urlField, onConnect } = setup({
      apiKey: KEY,
      keyFor: (url) => kept[url],
    });
    await user.clear(urlField);
    await user.type(urlField, 'http://127.0.0.1:9');
    expect(keyField.value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Connect' }));
    expect(onConnect).toHaveBeenLastCalledWith('http://127.0.0.1:9', undefined);

    await user.clear(urlField);
    await user.type(urlField, OTHER);
    expect(keyField.value).toBe('other-key');
    await user.clear(urlField);
    await user.type(urlField, AGENT);
    expect(keyField.value).toBe(KEY);
  });

  it('keeps a key typed by hand when the URL changes after it', async () => {
    const { user, keyField, urlField, onConnect } = setup();
    await user.type(keyField, 'typed-key');
    await user.clear(urlField);
    await user.type(urlField, `${OTHER}{Enter}`);
    expect(onConnect).toHaveBeenLastCalledWith(OTHER, 'typed-key');
  });

  it('refuses a key with spaces, saying why', async () => {
    const { user, keyField, onConnect } = setup();
    await user.type(keyField, 'two words{Enter}');
    expect(onConnect).not.toHaveBeenCalled();
    expect(keyField.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(keyField)).toContain('without spaces');
  });

  it('"Forget key" shows only while a key is kept; it forgets it and leaves focus in the field', async () => {
    const { user, keyField, onForgetKey, rerender } = setup();
    expect(screen.queryByRole('button', { name: 'Forget key' })).toBeNull();

    rerender({ apiKey: KEY });
    await user.click(screen.getByRole('button', { name: 'Forget key' }));
    expect(onForgetKey).toHaveBeenCalledOnce();
    expect(keyField.value).toBe('');
    expect(document.activeElement).toBe(keyField);
  });

  it('says when the agent needs a key or refused it, and marks the field', () => {
    const { keyField, rerender } = setup({ keyProblem: 'missing' });
    expect(keyField.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(keyField)).toContain('This agent needs an API key.');

    rerender({ keyProblem: 'refused', apiKey: 'wrong' });
    expect(descriptionOf(keyField)).toContain('The agent refused this API key.');
    expect(descriptionOf(keyField)).not.toContain('wrong');

    rerender({ keyProblem: undefined });
    expect(keyField.getAttribute('aria-invalid')).toBeNull();
  });

  it('takes focus when asked (each time the count goes up)', () => {
    const { keyField, rerender } = setup();
    expect(document.activeElement).not.toBe(keyField);
    rerender({ focusKey: 1 });
    expect(document.activeElement).toBe(keyField);
    keyField.blur();
    rerender({ focusKey: 2 });
    expect(document.activeElement).toBe(keyField);
  });
});
