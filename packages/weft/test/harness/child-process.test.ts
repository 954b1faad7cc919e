import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listServerCalls, runChild, startTestServer } from './index.js';

const script = fileURLToPath(new URL('./fixtures/send-calls.ts', import.meta.url));

describe('runChild', () => {
  it('runs a TypeScript script against the sources and exits on its own when done', async () => {
    const server = await startTestServer();
    const child = await runChild(script, { env: { WEFT_URL: server.url, COUNT: '300' } });
    await expect(child.waitForLine(/^sent /)).resolves.toBe('sent 300');
    await expect(child.exited).resolves.toEqual({ code: 0, signal: null });
    expect(await listServerCalls(server.url, 'child')).toHaveLength(300);
  });

  it('kills a child with SIGKILL and reports the signal', async () => {
    const server = await startTestServer();
    const child = await runChild(script, { env: { WEFT_URL: server.url, COUNT: '1', HANG: '1' } });
    await child.waitForLine('sent 1');
    child.kill('SIGKILL');
    await expect(child.exited).resolves.toEqual({ code: null, signal: 'SIGKILL' });
  });
});
