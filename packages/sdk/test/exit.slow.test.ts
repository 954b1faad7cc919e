import { fileURLToPath } from 'node:url';
import { callQueryResponse, routes } from '@weft/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from './support/index.js';
import { startTestServer, type TestServer } from '@weft/test-server';

const script = fileURLToPath(new URL('./fixtures/exit-child.ts', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ register: false });
});
afterAll(async () => {
  await server.close();
});

async function serverCount(project: string): Promise<number> {
  let cursor: string | undefined;
  let n = 0;
  for (;;) {
    const res = await fetch(server.url + routes.callQuery(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project, limit: 1_000, cursor }),
    });
    const page = callQueryResponse.parse(await res.json());
    n += page.calls.length;
    if (page.nextCursor === null) return n;
    cursor = page.nextCursor;
  }
}

describe('exit behaviour', () => {
  it('a child that traces 5,000 calls and ends naturally delivers all of them, and exits', async () => {
    const child = await runChild(script, { args: [server.url, 'exit-natural', 'natural', '5000'] });
    expect(await child.waitForLine(/^finished/)).toBe('finished 5000');
    // Exiting at all shows tracing does not keep the process alive after its flush.
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(await serverCount('exit-natural')).toBe(5_000);
  });

  it('a child that gets SIGTERM mid-burst delivers every call finished before it, then dies of the signal', async () => {
    const child = await runChild(script, { args: [server.url, 'exit-sigterm', 'sigterm'] });
    await child.waitForLine('ready');
    child.kill('SIGTERM');
    const line = await child.waitForLine(/^finished/);
    const finished = Number(line.split(' ')[1]);
    // Default behaviour restored after the flush: the signal is re-raised, never process.exit.
    expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(finished).toBeGreaterThanOrEqual(1_000);
    expect(await serverCount('exit-sigterm')).toBeGreaterThanOrEqual(finished);
  });
});
