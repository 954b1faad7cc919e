import { connect, type Socket } from 'node:net';
import { routes } from '@weft/protocol';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completeOf } from './support/calls.js';
import { post, send } from './support/http.js';
import {
  establishedConnections,
  probeHealth,
  type ServerChild,
  startServerChild,
} from './support/server-child.js';

// Clients that hold a server's connections, memory or attention, against a
// real server in a process of its own with its limits lowered so the test
// sees them act. Before: no request or idle timeout at all (Fastify's
// defaults), so every one of these connections was held until the client
// let go, and a liveness probe waited behind every request in progress.

/** A raw connection that records what the server wrote and when it closed. */
interface RawClient {
  socket: Socket;
  closed: Promise<void>;
  answer(): string;
}

async function rawClient(server: ServerChild, { read = true } = {}): Promise<RawClient> {
  const socket = connect({ host: '127.0.0.1', port: server.port });
  onTestFinished(() => {
    socket.destroy();
  });
  let answer = '';
  socket.on('error', () => {});
  if (read) socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
  else socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // The server may close a connection past its cap before it is used: close is the end either way.
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  return { socket, closed, answer: () => answer };
}

/** Writes one byte every `everyMs` until the socket closes: a client that keeps the connection busy but never finishes. */
function trickle(client: RawClient, everyMs: number): void {
  const timer = setInterval(() => {
    if (!client.socket.destroyed) client.socket.write('a');
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
  onTestFinished(() => clearInterval(timer));
}

describe('clients that are slow, never read, or many', () => {
  it('regression: a client sending its body a byte at a time was held forever; now it gets 408 and is cut at requestTimeoutMs', async () => {
    const server = await startServerChild({
      options: { requestTimeoutMs: 1_000, headersTimeoutMs: 1_000, idleTimeoutMs: 30_000 },
    });
    const client = await rawClient(server);
    client.socket.write(
      `POST ${routes.callBatch()} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    trickle(client, 100);
    await client.closed;
    expect(client.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.answer()).toContain('WEFT_REQUEST_TIMEOUT');
    expect((await send(server.url, routes.health(), {})).status).toBe(200);
  });

  it('regression: clients that never read a 16 MiB answer pinned it in memory; now each is cut at idleTimeoutMs', async () => {
    const server = await startServerChild({ options: { idleTimeoutMs: 1_000 } });
    const file = Buffer.alloc(16 * 1024 * 1024, 7);
    const stored = await send(server.url, routes.fileCreate('p'), {
      method: 'POST',
      body: file,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(stored.status).toBe(200);
    const readers = await Promise.all(Array.from({ length: 20 }, () => rawClient(server, { read: false })));
    for (const reader of readers)
      reader.socket.write(
        `GET ${routes.fileRead('p', stored.body.digest)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
    // A client that never reads sees no event when the server drops it; the server's side of each connection goes.
    await expect.poll(() => establishedConnections(server.port)).toBeGreaterThanOrEqual(20);
    await expect.poll(() => establishedConnections(server.port), { timeout: 20_000, interval: 100 }).toBe(0);
    expect((await send(server.url, routes.health(), {})).status).toBe(200);
    // 20 answers of 16 MiB were pending at once; they were dropped, not kept.
    expect(await server.peakRssMib()).toBeLessThan(1_000);
  });

  it('regression: 300 trickling connections at a 256-descriptor limit starved everyone; now the server caps them, cuts them, and serves again', async () => {
    const server = await startServerChild({
      options: {
        maxConnections: 100,
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 2_000,
        idleTimeoutMs: 30_000,
      },
      wrap: ['sh', '-c', 'ulimit -n 256 && exec "$@"', 'sh'],
    });
    const clients: RawClient[] = [];
    for (let i = 0; i < 300; i++) {
      const client = await rawClient(server);
      // Headers that never end.
      client.socket.write(`GET ${routes.health()} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `);
      trickle(client, 200);
      clients.push(client);
    }
    await Promise.all(clients.map((client) => client.closed));
    expect(server.child.exitCode).toBeNull();
    // Every slow client was refused or cut; the server answers, and still writes to its database.
    expect((await send(server.url, routes.health(), {})).status).toBe(200);
    expect(
      (await post(server.url, routes.callBatch(), { project: 'p', items: [completeOf(1)] })).status,
    ).toBe(200);
  });

  it('regression: /health waited behind 100 concurrent 1 MB batches; now excess batches get 503 + Retry-After and /health answers', async () => {
    const server = await startServerChild({ options: { maxRequestsInFlight: 2 } });
    const batch = (n: number) =>
      JSON.stringify({
        project: 'load',
        items: Array.from({ length: 250 }, (_, i) =>
          completeOf(n * 1_000 + i, { inputs: { text: 'x'.repeat(4_000) } }),
        ),
      });
    const { result: replies, health } = await probeHealth(server, () =>
      Promise.all(
        Array.from({ length: 100 }, (_, n) =>
          send(server.url, routes.callBatch(), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: batch(n),
          }),
        ),
      ),
    );
    const statuses = replies.map((reply) => reply.status);
    expect(new Set(statuses)).toEqual(new Set([200, 503]));
    for (const reply of replies.filter((r) => r.status === 503)) {
      expect(reply.body.error.code).toBe('WEFT_OVERLOADED');
      // Whole seconds from the measured drain rate (the batches refused wait their turn), 1 to 30.
      expect(reply.headers.get('retry-after')).toMatch(/^([1-9]|[12]\d|30)$/);
    }
    expect(health.failures).toBe(0);
    // Generous: on 2 shared cores at a load average of 21, probed from a process of
    // its own, it was 1.4 s with this cap and 7.5 s without one.
    expect(health.slowestMs).toBeLessThan(4_000);
  });
});
