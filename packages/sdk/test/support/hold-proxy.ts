import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP proxy in front of the trace server that can HOLD requests:
 * while paused, requests are accepted and kept without any response; on
 * resume they are forwarded in order. It can also answer with a fixed status
 * instead of forwarding. (A minimal stand-in until test/harness's fault proxy
 * is used; only the behaviour these tests need.)
 */
export interface HoldProxy {
  url: string;
  /** Requests received so far. */
  readonly received: number;
  /** Responses sent back so far. */
  readonly answered: number;
  /** Requests held now. */
  readonly held: number;
  pause(): void;
  resume(): void;
  /** Answer every request with `status` (until `respond(undefined)`). */
  respond(status: number | undefined): void;
  /** Resolves when at least `n` requests are held. */
  whenHeld(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHoldProxy(target: string): Promise<HoldProxy> {
  const upstream = new URL(target);
  let paused = false;
  let status: number | undefined;
  let received = 0;
  let answered = 0;
  const held: (() => void)[] = [];
  const heldWaiters: { n: number; resolve: () => void }[] = [];

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    if (status !== undefined) {
      answered++;
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'PROXY', message: `proxy answered ${status}` } }));
      return;
    }
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        up.on('end', () => {
          answered++;
        });
      },
    );
    out.on('error', () => {
      answered++;
      res.writeHead(502).end();
    });
    out.end(body);
  };

  const server = createServer((req, res) => {
    received++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (paused) {
        held.push(() => forward(req, body, res));
        for (const w of heldWaiters.filter((w) => held.length >= w.n)) w.resolve();
      } else forward(req, body, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    get answered() {
      return answered;
    },
    get held() {
      return held.length;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const go of held.splice(0)) go();
    },
    respond(s) {
      status = s;
    },
    whenHeld(n) {
      if (held.length >= n) return Promise.resolve();
      return new Promise((resolve) => heldWaiters.push({ n, resolve }));
    },
    async close() {
      paused = false;
      for (const go of held.splice(0)) go();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
