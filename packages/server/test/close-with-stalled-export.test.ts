import { connect } from 'node:net';
import { routes } from '@weft/protocol';
import { startTestServer } from '@weft/test-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completeOf } from './support/calls.js';
import { post } from './support/http.js';
import { freshTestStorageUrl, testStorageKind } from './support/test-storage.js';

/*
 * A streaming export held open by a client that stops reading: the answer
 * stalls once the socket's buffers are full. Closing the server waits for
 * in-flight answers, so before the fix close() hung until the idle timeout
 * cut the client (forever with a long one); now answers still streaming
 * `closeTimeoutMs` after close began are destroyed and close() ends.
 */
describe(`closing with a stalled export (${testStorageKind()})`, () => {
  it('regression: close hung while a client that never reads held a streaming export; now it ends', async () => {
    const server = await startTestServer({
      storage: freshTestStorageUrl(),
      register: false,
      // Long enough that only the close deadline can end the stalled answer within the test's time.
      idleTimeoutMs: 600_000,
      closeTimeoutMs: 200,
    });
    onTestFinished(() => server.close());
    const project = 'stalled';
    // 48 calls of 512 KiB each: a 24 MiB export, well past what loopback socket buffers hold.
    const big = 'x'.repeat(512 * 1024);
    for (let batch = 0; batch < 4; batch++) {
      const items = Array.from({ length: 12 }, (_, i) => completeOf(batch * 12 + i, { inputs: { big } }));
      expect((await post(server.url, routes.callBatch(), { project, items })).status).toBe(200);
    }

    const socket = connect({ host: '127.0.0.1', port: new URL(server.url).port as unknown as number });
    socket.on('error', () => {});
    onTestFinished(() => {
      socket.destroy();
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const path = `${routes.callExport()}?${new URLSearchParams({ project, format: 'jsonl' })}`;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    // The answer has started (its headers arrived); from here on the client reads nothing.
    const head = await new Promise<string>((resolve) =>
      socket.once('data', (chunk) => resolve(String(chunk))),
    );
    socket.pause();
    expect(head).toMatch(/^HTTP\/1.1 200/);

    await server.close();
    // The server cut the answer: reading what the buffers still hold reaches the end of the connection.
    socket.resume();
    await closed;
  }, 60_000);
});
