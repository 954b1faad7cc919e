import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** Hop-by-hop headers a proxy must not forward. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

/**
 * A load balancer in front of `weft serve` replicas, as small as it can be:
 * requests go to the upstreams in turn. An upstream that refuses the
 * connection (its process is gone) is skipped from then on and the request
 * goes to the next one, as a balancer's health check would do; a request cut
 * mid-way gets 502, which the SDK retries. Emits `forward` with the upstream
 * index for each request sent on.
 */
export class RoundRobinProxy extends EventEmitter {
  readonly #server: Server;
  readonly #upstreams: string[];
  readonly #dead = new Set<number>();
  #next = 0;
  /** Requests sent on, per upstream. */
  readonly forwarded: number[];

  readonly #connectionPerRequest: boolean;

  private constructor(server: Server, upstreams: string[], connectionPerRequest: boolean) {
    super();
    this.#server = server;
    this.#upstreams = upstreams;
    this.#connectionPerRequest = connectionPerRequest;
    this.forwarded = upstreams.map(() => 0);
  }

  /**
   * `connectionPerRequest`: open a new connection to the upstream for each
   * request (and close it after), so an upstream that hands connections to
   * several worker processes spreads the requests over all of them.
   */
  static async start(
    upstreams: string[],
    { connectionPerRequest = false }: { connectionPerRequest?: boolean } = {},
  ): Promise<RoundRobinProxy> {
    const server = createServer();
    const proxy = new RoundRobinProxy(server, upstreams, connectionPerRequest);
    server.on('request', (req, res) => {
      proxy.#handle(req, res).catch(() => res.destroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    }
    for (let tries = 0; tries < this.#upstreams.length; tries++) {
      const index = this.#pick();
      if (index === undefined) break;
      try {
        this.forwarded[index] = (this.forwarded[index] ?? 0) + 1;
        this.emit('forward', index);
        const answer = await request(`${this.#upstreams[index]}${req.url ?? '/'}`, {
          method: req.method as 'GET' | 'POST',
          headers,
          reset: this.#connectionPerRequest,
          ...(body.length > 0 ? { body } : {}),
        });
        const reply = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, {
          'content-type': String(answer.headers['content-type'] ?? 'application/json'),
          ...(answer.headers['retry-after'] ? { 'retry-after': String(answer.headers['retry-after']) } : {}),
        });
        res.end(reply);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') break;
        this.#dead.add(index);
      }
    }
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'PROXY_UPSTREAM_FAILED', message: 'upstream failed' } }));
  }

  #pick(): number | undefined {
    for (let i = 0; i < this.#upstreams.length; i++) {
      const index = this.#next;
      this.#next = (this.#next + 1) % this.#upstreams.length;
      if (!this.#dead.has(index)) return index;
    }
    return undefined;
  }
}
