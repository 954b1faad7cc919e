import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { startTestServer } from '@weft/test-server';
import { replayOutbox } from '../src/outbox-admin/index.js';
import { duplicateIds, listServerCalls, runChild } from './support/index.js';

const script = fileURLToPath(new URL('./fixtures/process-exit-child.ts', import.meta.url));
const CALLS = 50_000;

// Issue 26 item 6: with the server down, 50,000 traced calls followed by process.exit(0) kept 0 calls
// and warned about none (the outbox's writer and the exit flush run on later turns, which never come).
it('process.exit() with the server down keeps what is encoded in the outbox and warns with the count of the rest', async () => {
  const server = await startTestServer();
  await server.stop();
  const outboxDir = await mkdtemp(join(tmpdir(), 'weft-process-exit-'));
  onTestFinished(() => rm(outboxDir, { recursive: true, force: true }));
  const project = 'process-exit';

  const child = await runChild(script, { args: [server.url, project, outboxDir, String(CALLS)] });
  expect(await child.exited).toEqual({ code: 0, signal: null });
  const line = child
    .stdout()
    .split('\n')
    .find((l) => l.startsWith('exit '));
  expect(line, `no exit message; stderr:\n${child.stderr()}`).toBeDefined();
  const { kept, lost } = JSON.parse(line!.slice('exit '.length)) as { kept: number; lost: number };
  expect(kept).toBeGreaterThan(0);
  // The warning, on stderr like a process warning, says the same.
  const warning = child
    .stderr()
    .split('\n')
    .find((l) => l.includes('[WEFT_EXIT_UNSENT] WeftWarning'));
  expect(warning).toContain(`${kept} record(s) kept in the outbox`);
  if (lost > 0) expect(warning).toContain(`${lost} record(s) could not be kept`);

  // What was kept (before exit and at it) reaches the server once replayed; with what the warning
  // counted as lost it is every call.
  await server.start();
  await replayOutbox({ dir: outboxDir, url: server.url, onWarning: () => {} });
  const calls = await listServerCalls(server.url, project);
  expect(duplicateIds(calls)).toEqual([]);
  expect(calls.length + lost).toBe(CALLS);
}, 60_000);
