// Counts pwrite64 calls of the harness's main thread per new-task /help (one in flight).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

const N = Number(process.env.N ?? 200);
const harness = await startHarness({ config: { offline: { latencyMs: 0 } } });
for (let i = 0; i < 20; i++) await rpc(harness.url, 'SendMessage', { message: userText('/help') });
const out = `/tmp/owntable/strace-${process.pid}.txt`;
const strace = spawn('strace', ['-c', '-e', 'trace=pwrite64,fdatasync,fsync', '-p', String(process.pid), '-o', out]);
await new Promise((r) => setTimeout(r, 1500));
for (let i = 0; i < N; i++) {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
  if (!body.result?.task) throw new Error(JSON.stringify(body));
}
strace.kill('SIGINT');
await new Promise((r) => strace.on('exit', r));
const text = readFileSync(out, 'utf8');
console.log(text);
for (const line of text.split('\n')) {
  const m = line.trim().split(/\s+/);
  if (m.at(-1) === 'pwrite64' || m.at(-1) === 'fdatasync' || m.at(-1) === 'fsync') console.log(m.at(-1), 'per command:', Number(m[3]) / N);
}
await harness.stop();
process.exit(0);
