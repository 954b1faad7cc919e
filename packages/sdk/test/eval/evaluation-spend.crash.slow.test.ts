import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvaluationSummary } from '@weft/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/init.js';
import { startTestServer, type TestServer } from '@weft/test-server';
import { type FakeProvider, startFakeProvider } from '../fixtures/fake-provider/index.js';
import { runChild } from '../support/index.js';

const childScript = fileURLToPath(new URL('./fixtures/usage-crash-child.ts', import.meta.url));

let dir: string;
let server: TestServer;
let provider: FakeProvider;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-eval-spend-'));
  server = await startTestServer({ register: afterAll });
  provider = await startFakeProvider();
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

// The fake provider's default reply: 12 input and 7 output tokens of gpt-4o per row.
const perRow = (rows: number) => ({ requests: rows, inputTokens: 12 * rows, outputTokens: 7 * rows });

it("a resumed run's usage and cost cover every row it reports, and the crashed run's call shows what it spent (SIGKILL at 20/40 rows)", async () => {
  const checkpoint = join(dir, 'run.jsonl');
  const env = { WEFT_URL: server.url, PROVIDER_URL: provider.url, OUTBOX_DIR: join(dir, 'outbox') };
  const first = await runChild(childScript, { args: [checkpoint, '0'], env });
  await first.waitForLine('HALFWAY');
  first.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  const crashedRunId = (
    JSON.parse((await readFile(checkpoint, 'utf8')).split('\n')[0] as string) as { callId: string }
  ).callId;

  const second = await runChild(childScript, { args: [checkpoint, '1'], env });
  const line = await second.waitForLine(/^SUMMARY /);
  expect(await second.exited).toEqual({ code: 0, signal: null });
  const { summary, callId } = JSON.parse(line.slice('SUMMARY '.length)) as {
    summary: EvaluationSummary;
    callId: string;
  };
  expect(summary.completed).toBe(40);
  expect(summary.usage?.['gpt-4o']).toMatchObject(perRow(40));

  const client = createClient({ project: 'eval-spend', url: server.url, outbox: false, handleExit: false });
  try {
    // The resumed run's call: the 20 rows re-sent from the checkpoint count as much as the 20 it ran.
    const resumed = await client.getCall(callId);
    expect(resumed?.summary?.usage?.['gpt-4o']).toMatchObject(perRow(40));
    expect(resumed?.summary?.usage).toEqual(summary.usage);
    expect(resumed?.summary?.costUsd).toBeGreaterThan(0);
    // The crashed run's call: what its 20 recorded rows spent.
    const crashed = await client.getCall(crashedRunId);
    expect(crashed?.status).toBe('error');
    expect(crashed?.summary?.usage?.['gpt-4o']).toMatchObject(perRow(20));
    expect(crashed?.summary?.costUsd).toBeCloseTo((resumed?.summary?.costUsd ?? 0) / 2, 10);
  } finally {
    await client.shutdown();
  }
});
