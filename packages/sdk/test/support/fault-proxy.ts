import { EventEmitter, once } from 'node:events';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the proxy answers instead of the server. */
export interface InjectedResponse {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON; defaults to a Weft-style error body naming the fault. */
  body?: unknown;
}

/** Counters of what the proxy did; every change fires the proxy's waiters. */
export interface ProxyCounters {
  /** Requests that reached the proxy (headers received). */
  seen: number;
  /** Requests sent on to the server. */
  forwarded: number;
  /** Requests held right now by `pause()`. */
  held: number;
  /** Requests answered by the proxy itself (`failNext`, `respond`). */
  injected: number;
  /** Connections destroyed mid-request (`dropConnections`). */
  dropped: number;
  /** Requests the server answered but whose client socket was destroyed instead (`resetAfterForward`). */
  reset: number;
  /** Responses relayed with a corrupted body (`corruptResponses`). */
  corrupted: number;
  /** Server answers relayed unchanged. */
  relayed: number;
  /** Forwarding failed (server down): answered 502. */
  upstreamErrors: number;
}

/** Options of {@link FaultProxy.start}. */
export interface FaultProxyOptions {
  /** The server to forward to, e.g. `http://127.0.0.1:7420`. */
  upstream: string;
  /** Which requests faults apply to (all by default); others always pass through. */
  match?: (request: { method: string; path: string }) => boolean;
  /** Keeps every request (method, path, body) in `received`, for tests that count what a client asked. @default false */
  record?: boolean;
}

/** A request the proxy received, as kept with `record`. */
export interface ReceivedRequest {
  method: string;
  path: string;
  body: Buffer;
}

type Mode =
  | { kind: 'pass' }
  | { kind: 'respond'; response: InjectedResponse }
  | { kind: 'drop'; remaining: number }
  | { kind: 'reset'; remaining: number }
  | { kind: 'corrupt'; remaining: number };

interface Pending {
  req: IncomingMessage;
  res: ServerResponse;
  body: Buffer;
}

/** Every HTTP status the harness injects is answered with this error code, so a test can tell it from the server's own. */
export const INJECTED_ERROR_CODE = 'WEFT_TEST_FAULT';

/**
 * A real HTTP proxy on 127.0.0.1:0 in front of a real server, with faults a
 * test switches on and off: hold requests, answer errors, delay, drop the
 * connection mid-request, let the server store a request and then reset the
 * client's connection, corrupt responses.
 *
 * ```
 * SDK ──► proxy ──(pause? failNext/respond? drop?)──► server
 *           ◄──(delay, reset, corrupt)────────────────┘
 * ```
 *
 * The order of checks for each request: `dropConnections` when the headers
 * arrive; then, once the body is in, `pause` (held until `resume`), then
 * `failNext` / `respond`, then `delay`, then forward, then `resetAfterForward`
 * or `corruptResponses` on the way back.
 */
export class FaultProxy {
  #server: Server;
  #upstream: URL;
  #match: (request: { method: string; path: string }) => boolean;
  #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  #sockets = new Set<Socket>();
  #events = new EventEmitter();
  #timers = new Set<NodeJS.Timeout>();
  #paused = false;
  #held: Pending[] = [];
  #failures: InjectedResponse[] = [];
  #mode: Mode = { kind: 'pass' };
  #delayMs = 0;
  #closed: Promise<void> | undefined;
  readonly counters: ProxyCounters = {
    seen: 0,
    forwarded: 0,
    held: 0,
    injected: 0,
    dropped: 0,
    reset: 0,
    corrupted: 0,
    relayed: 0,
    upstreamErrors: 0,
  };

  /** Every request received, once its body is in (only with `record`). */
  readonly received: ReceivedRequest[] = [];
  readonly #record: boolean;

  private constructor(server: Server, options: FaultProxyOptions) {
    this.#server = server;
    this.#record = options.record ?? false;
    this.#upstream = new URL(options.upstream);
    this.#match = options.match ?? (() => true);
    this.#events.setMaxListeners(0);
  }

  /** Starts a proxy on 127.0.0.1 (a free port) forwarding to `upstream`. */
  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const server = createServer({ keepAliveTimeout: 30_000 });
    const proxy = new FaultProxy(server, options);
    server.on('connection', (socket) => {
      proxy.#sockets.add(socket);
      socket.on('close', () => proxy.#sockets.delete(socket));
    });
    server.on('request', (req, res) => proxy.#onRequest(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Points the proxy at another server (after a restart on a new port). */
  setUpstream(url: string): void {
    this.#upstream = new URL(url);
  }

  /** Holds every matching request from now on: it reaches the proxy, but gets no answer until `resume()`. */
  pause(): void {
    this.#paused = true;
  }

  /** Releases the held requests (in arrival order) to the rest of the pipeline, and stops holding. */
  resume(): void {
    this.#paused = false;
    const held = this.#held;
    this.#held = [];
    this.counters.held = 0;
    this.#changed();
    for (const pending of held) this.#dispatch(pending);
  }

  /** Answers the next `count` matching requests with `response` (e.g. 503, or 429 with `retry-after`), without forwarding. */
  failNext(count: number, response: InjectedResponse): void {
    for (let i = 0; i < count; i++) this.#failures.push(response);
  }

  /** Answers every matching request with `status` until `passThrough()`. */
  respond(status: number, headers: Record<string, string> = {}): void {
    this.#mode = { kind: 'respond', response: { status, headers } };
  }

  /** Delays every matching request by `ms` before forwarding it (the answer comes that much later). */
  delay(ms: number): void {
    this.#delayMs = ms;
  }

  /** Destroys the connection of the next `count` matching requests as soon as their headers arrive. */
  dropConnections(count = Number.POSITIVE_INFINITY): void {
    this.#mode = { kind: 'drop', remaining: count };
  }

  /** Forwards the next `count` matching requests, lets the server answer (it stored them), then destroys the client's socket instead of answering. */
  resetAfterForward(count = Number.POSITIVE_INFINITY): void {
    this.#mode = { kind: 'reset', remaining: count };
  }

  /** Forwards the next `count` matching requests and relays the server's status with a body of invalid bytes (0xc1, never valid msgpack or JSON). */
  corruptResponses(count = Number.POSITIVE_INFINITY): void {
    this.#mode = { kind: 'corrupt', remaining: count };
  }

  /** Clears every fault (mode, pending `failNext`, delay) and releases held requests. */
  passThrough(): void {
    this.#mode = { kind: 'pass' };
    this.#failures = [];
    this.#delayMs = 0;
    this.resume();
  }

  /** Resolves when `predicate(counters)` holds (checked now and after every counter change). */
  waitFor(predicate: (counters: Readonly<ProxyCounters>) => boolean): Promise<void> {
    if (predicate(this.counters)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!predicate(this.counters)) return;
        this.#events.off('change', check);
        resolve();
      };
      this.#events.on('change', check);
    });
  }

  /** Stops listening, destroys every connection (held requests included). Idempotent. */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      for (const timer of this.#timers) clearTimeout(timer);
      for (const pending of this.#held) pending.req.socket.destroy();
      this.#held = [];
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      for (const socket of this.#sockets) socket.destroy();
      this.#agent.destroy();
      await closed;
    })();
    return this.#closed;
  }

  #changed(): void {
    this.#events.emit('change');
  }

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.counters.seen += 1;
    const faulty = this.#match({ method: req.method ?? 'GET', path: req.url ?? '/' });
    if (faulty && this.#mode.kind === 'drop' && this.#consume(this.#mode)) {
      this.counters.dropped += 1;
      req.socket.destroy();
      this.#changed();
      return;
    }
    this.#changed();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => {});
    req.on('end', () => {
      const pending = { req, res, body: Buffer.concat(chunks) };
      if (this.#record)
        this.received.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: pending.body });
      if (faulty && this.#paused) {
        this.#held.push(pending);
        this.counters.held += 1;
        this.#changed();
        return;
      }
      this.#dispatch(pending);
    });
  }

  #dispatch(pending: Pending): void {
    const { req, res } = pending;
    if (req.socket.destroyed) return;
    const faulty = this.#match({ method: req.method ?? 'GET', path: req.url ?? '/' });
    const injected = faulty
      ? (this.#failures.shift() ?? (this.#mode.kind === 'respond' ? this.#mode.response : undefined))
      : undefined;
    if (injected !== undefined) {
      this.counters.injected += 1;
      const body = JSON.stringify(
        injected.body ?? {
          error: { code: INJECTED_ERROR_CODE, message: `injected ${injected.status} by the test proxy` },
        },
      );
      res.writeHead(injected.status, { 'content-type': 'application/json', ...injected.headers });
      res.end(body);
      this.#changed();
      return;
    }
    let after: 'relay' | 'reset' | 'corrupt' = 'relay';
    if (faulty && this.#mode.kind === 'reset' && this.#consume(this.#mode)) after = 'reset';
    if (faulty && this.#mode.kind === 'corrupt' && this.#consume(this.#mode)) after = 'corrupt';
    if (faulty && this.#delayMs > 0) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#forward(pending, after);
      }, this.#delayMs);
      this.#timers.add(timer);
      return;
    }
    this.#forward(pending, after);
  }

  #forward({ req, res, body }: Pending, after: 'relay' | 'reset' | 'corrupt'): void {
    const headers: IncomingHttpHeaders = {
      ...req.headers,
      host: this.#upstream.host,
      'content-length': String(body.byteLength),
    };
    delete headers.connection;
    delete headers['keep-alive'];
    delete headers['transfer-encoding'];
    const upstream = httpRequest(
      new URL(req.url ?? '/', this.#upstream),
      { method: req.method, headers, agent: this.#agent },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', () => this.#upstreamFailed(res));
        answer.on('end', () => {
          const payload = Buffer.concat(chunks);
          if (after === 'reset') {
            this.counters.reset += 1;
            req.socket.destroy();
            this.#changed();
            return;
          }
          const out = after === 'corrupt' ? Buffer.alloc(Math.max(payload.byteLength, 1), 0xc1) : payload;
          const relayed: IncomingHttpHeaders = {
            ...answer.headers,
            'content-length': String(out.byteLength),
          };
          delete relayed.connection;
          delete relayed['keep-alive'];
          delete relayed['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, relayed);
          res.end(out);
          if (after === 'corrupt') this.counters.corrupted += 1;
          else this.counters.relayed += 1;
          this.#changed();
        });
      },
    );
    upstream.on('error', () => this.#upstreamFailed(res));
    upstream.end(body);
    this.counters.forwarded += 1;
    this.#changed();
  }

  #upstreamFailed(res: ServerResponse): void {
    this.counters.upstreamErrors += 1;
    if (!res.headersSent && !res.socket?.destroyed) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: INJECTED_ERROR_CODE, message: 'the test proxy could not reach the server' },
        }),
      );
    }
    this.#changed();
  }

  #consume(mode: { remaining: number }): boolean {
    if (mode.remaining <= 0) return false;
    mode.remaining -= 1;
    if (mode.remaining === 0) this.#mode = { kind: 'pass' };
    return true;
  }
}
