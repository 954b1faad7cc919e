import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMsgpack, PROTOCOL_VERSION, routes } from '@weft/protocol';
import { afterEach, beforeEach } from 'vitest';
import { ApiClient } from '../../../src/transport/api-client.js';

/** A request as the scripted server saw it; msgpack and JSON bodies are decoded. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the script answers; `body` is sent as JSON. */
export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Script = (request: SeenRequest, index: number) => ScriptedResponse | Promise<ScriptedResponse>;

/**
 * A real HTTP server on 127.0.0.1:0 whose answers a test scripts, for unit
 * tests of the transport's reaction to each status. It records every request
 * and keeps an idempotent upsert of call items by id, like the real server.
 */
export class ScriptedServer {
  readonly requests: SeenRequest[] = [];
  /** Call items received in 2xx-answered batches, by id (last write wins). */
  readonly calls = new Map<string, unknown>();
  /** How many items arrived in 2xx-answered batches, duplicates included. */
  itemsAccepted = 0;
  script: Script = () => ({ status: 200, body: { accepted: 0 } });
  /**
   * How `GET /version` is answered: by default as a current server does.
   * These probes are counted in `versionProbes`, not kept in `requests`, so
   * the script's indexes count batches and health checks only.
   */
  versionScript: () => ScriptedResponse = () => ({
    status: 200,
    body: { version: 'scripted', protocolVersion: PROTOCOL_VERSION },
  });
  versionProbes = 0;
  #server: Server;
  #waiters: { count: number; resolve: () => void }[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<ScriptedServer> {
    const server = createServer();
    const scripted = new ScriptedServer(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        if (req.url === routes.version()) {
          scripted.versionProbes += 1;
          const answer = scripted.versionScript();
          res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
          res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
          return;
        }
        const raw = Buffer.concat(chunks);
        const type = req.headers['content-type'] ?? '';
        let body: unknown;
        if (raw.byteLength > 0)
          body = type.includes('msgpack') ? decodeMsgpack(raw) : JSON.parse(raw.toString('utf8'));
        const seen: SeenRequest = {
          method: req.method ?? 'GET',
          path: req.url ?? '/',
          headers: req.headers,
          body,
        };
        const index = scripted.requests.push(seen) - 1;
        scripted.#notify();
        const answer = await scripted.script(seen, index);
        if (answer.status >= 200 && answer.status < 300 && seen.path === '/v1/calls/batch') {
          const items = (body as { items?: { id: string }[] }).items ?? [];
          for (const item of items) scripted.calls.set(item.id, item);
          scripted.itemsAccepted += items.length;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
        scripted.#notify();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return scripted;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Batch requests seen so far (health probes excluded). */
  get batches(): { project: string; items: { id: string; type: string }[] }[] {
    return this.requests
      .filter((request) => request.path === '/v1/calls/batch')
      .map((request) => request.body as { project: string; items: { id: string; type: string }[] });
  }

  /** Resolves once at least `count` requests have arrived (answered or not). */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #notify(): void {
    const ready = this.#waiters.filter((waiter) => this.requests.length >= waiter.count);
    this.#waiters = this.#waiters.filter((waiter) => this.requests.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }
}

/**
 * A scripted server and an `ApiClient` of it for each test of the calling
 * file, both closed after each test.
 */
export function useScriptedServer(): { readonly server: ScriptedServer; readonly client: ApiClient } {
  let server: ScriptedServer | undefined;
  let client: ApiClient | undefined;
  beforeEach(async () => {
    server = await ScriptedServer.start();
    client = new ApiClient({ url: server.url });
  });
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('the scripted server starts in beforeEach');
      return server;
    },
    get client() {
      if (client === undefined) throw new Error('the scripted server starts in beforeEach');
      return client;
    },
  };
}
