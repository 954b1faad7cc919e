import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of ClickHouse that can stall: while stalled it keeps
 * every connection open and forwards nothing, as a ClickHouse that is alive
 * but stuck (a long merge, a full disk, a network partition) would.
 */
export class StallProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #stalled = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(upstreamPort: number): Promise<StallProxy> {
    const server = createServer();
    const proxy = new StallProxy(server);
    server.on('connection', (client) => proxy.#pipe(client, upstreamPort));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  /** Stops forwarding in both directions on every connection, old and new. */
  stall(): void {
    this.#stalled = true;
  }

  /** Forwards again; connections that stalled are cut so clients open fresh ones. */
  resume(): void {
    this.#stalled = false;
    for (const socket of this.#sockets) socket.destroy();
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#server.close();
    await once(this.#server, 'close');
  }

  #pipe(client: Socket, upstreamPort: number): void {
    const upstream = connect(upstreamPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.on('data', (chunk) => {
      if (!this.#stalled) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!this.#stalled) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }
}
