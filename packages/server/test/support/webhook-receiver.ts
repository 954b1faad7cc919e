import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on 127.0.0.1 that records the JSON bodies POSTed to it, and can go down and come back. */
export interface WebhookReceiver {
  readonly url: string;
  /** Bodies received, in order. */
  readonly bodies: unknown[];
  /** Resolves with the `count`-th body (1-based) once it has arrived. */
  received(count: number): Promise<unknown>;
  /** Stops listening (connections are refused). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const bodies: unknown[] = [];
  const waiting: { count: number; resolve: (body: unknown) => void }[] = [];
  const handle = async (request: IncomingMessage, respond: (status: number) => void) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    respond(200);
    for (const wait of waiting.filter((w) => w.count <= bodies.length)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(bodies[wait.count - 1]);
    }
  };
  let server: Server | undefined;
  let port = 0;
  const up = async () => {
    server = createServer((request, response) => {
      void handle(request, (status) => response.writeHead(status).end());
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  };
  const down = async () => {
    if (server === undefined) return;
    const closing = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closing;
    server = undefined;
  };
  await up();
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    received: (count) =>
      count <= bodies.length
        ? Promise.resolve(bodies[count - 1])
        : new Promise((resolve) => waiting.push({ count, resolve })),
    down,
    up,
    close: down,
  };
}
