import { vi } from 'vitest';
import { sendCommand } from 'a2a-terminal-chat';

/** `a2a-harness send ...` in this process: what it printed and its exit code. */
export async function runSend(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await sendCommand({ program: 'a2a-harness' }).exitOverride().parseAsync(args, { from: 'user' });
    return { stdout, stderr, code: process.exitCode ?? 0 };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}
