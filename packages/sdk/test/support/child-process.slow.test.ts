import { fileURLToPath } from 'node:url';
import { encodeMsgpack, routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ApiClient } from '../../src/transport/api-client.js';
import { Batcher, type RecordOutcome } from '../../src/transport/batcher.js';
import { startServerProcess, startTestServer } from '@weft/test-server';
import { listServerCalls, runChild } from './index.js';

const script = fileURLToPath(new URL('./fixtures/send-calls.ts', import.meta.url));

describe('runChild', () => {
  it('runs a TypeScript script against the sources and exits on its own when done', async () => {
    const server = await startTestServer();
    const child = await runChild(script, { env: { WEFT_URL: server.url, COUNT: '300' } });
    await expect(child.waitForLine(/^sent /)).resolves.toBe('sent 300');
    await expect(child.exited).resolves.toEqual({ code: 0, signal: null });
    expect(await listServerCalls(server.url, 'child')).toHaveLength(300);
  });

  it('a process whose batcher is still retrying against a dead server exits on its own (timers unref)', async () => {
    const server = await startTestServer();
    const url = server.url;
    await server.stop(); // nothing listens there now: every request fails and is retried with backoff
    // Retries and circuit probes a minute apart: a ref'd timer would hold the process far past the test timeout.
    const child = await runChild(script, {
      env: { WEFT_URL: url, COUNT: '50', NO_CLOSE: '1', BACKOFF_BASE_MS: '60000' },
    });
    await child.waitForLine('added');
    await expect(child.exited).resolves.toEqual({ code: 0, signal: null });
  });

  it('kills a child with SIGKILL and reports the signal', async () => {
    const server = await startTestServer();
    const child = await runChild(script, { env: { WEFT_URL: server.url, COUNT: '1', HANG: '1' } });
    await child.waitForLine('sent 1');
    child.kill('SIGKILL');
    await expect(child.exited).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('startServerProcess: a server killed with SIGKILL mid-stream comes back with its data, and retries finish the job', async () => {
    const server = await startServerProcess();
    const client = new ApiClient({ url: server.url });
    onTestFinished(() => client.destroy());
    const batcher = new Batcher({
      project: 'killed',
      client,
      backoff: { baseMs: 20, maxMs: 200 },
      maxAttempts: 50,
      circuitFailureThreshold: 1_000,
      onWarning: () => {},
    });
    onTestFinished(() => batcher.close());
    const outcomes = new Map<string, RecordOutcome>();
    const add = (from: number, count: number) => {
      for (let i = from; i < from + count; i++) {
        const id = `01890000-0000-7000-a000-${i.toString(16).padStart(12, '0')}`;
        const item = {
          type: 'complete',
          id,
          traceId: id,
          parentId: null,
          opName: 'k',
          startedAt: i,
          endedAt: i + 1,
          inputs: {},
        };
        batcher.add({ callId: id, bytes: encodeMsgpack(item), done: (outcome) => outcomes.set(id, outcome) });
      }
    };
    add(0, 500);
    await batcher.flush();
    await server.kill('SIGKILL');
    add(500, 500);
    const flushed = batcher.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await client.get(routes.health())).status).toBe('retryable');
    await server.start();
    await flushed;
    expect([...outcomes.values()].filter((outcome) => outcome.status === 'sent')).toHaveLength(1_000);
    expect(batcher.stats.retries).toBeGreaterThan(0);
    const stored = await listServerCalls(server.url, 'killed');
    expect(new Set(stored.map((call) => call.id)).size).toBe(1_000);
    expect(stored).toHaveLength(1_000);
  });
});
