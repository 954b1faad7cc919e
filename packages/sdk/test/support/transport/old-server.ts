import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMsgpack, MsgpackKind, PROTOCOL_VERSION, readMsgpackHeader, routes } from '@weft/protocol';

/** How the old server answers `GET /version` (and, for protocols 2 and 3, which compact forms it reads). */
export type OldVersionAnswer = 'protocol-1' | 'protocol-2' | 'protocol-3' | 'not-found';

/**
 * The compact forms' ext types each old server refuses: call id and value
 * marker (read from protocol 2), value item digest (3), value items (4).
 */
const UNREAD_EXT_TYPES: Record<OldVersionAnswer, readonly number[]> = {
  'protocol-1': [0x55, 0x57, 0x44, 0x56, 0x41],
  'not-found': [0x55, 0x57, 0x44, 0x56, 0x41],
  'protocol-2': [0x44, 0x56, 0x41],
  'protocol-3': [0x56, 0x41],
};

/**
 * A Weft server from before protocol 4, as far as the SDK can tell: a real
 * HTTP server on 127.0.0.1:0 that answers `GET /version` with protocol 1
 * (or 404, as a server older than the route) and refuses, with 400, any call
 * batch whose msgpack holds an ext of type 0x55 (compact call id), 0x57
 * (compact value marker), 0x44 (compact digest) or 0x56/0x41 (compact value
 * items), as its decoder did; as `protocol-2` it answers 2 and refuses only
 * 0x44, 0x56 and 0x41, as `protocol-3` only 0x56 and 0x41. Batches it takes are
 * stored by call id; while `down`, it resets every connection (unreachable);
 * while `current`, it acts as a current server (compact bodies taken).
 */
export class OldServer {
  /** Every batch item taken (call records and value items), in order. */
  readonly items: Record<string, unknown>[] = [];
  /** How many times each call record was taken, by `<type> <id>` (a call's start and end are two records). */
  readonly arrivals = new Map<string, number>();
  /** Call batches refused because they held compact forms. */
  refusedCompact = 0;
  versionProbes = 0;
  down = false;
  /** While true it acts as a current server (compact bodies taken): set it false to "downgrade" it. */
  current = false;
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(versionAnswer: OldVersionAnswer): Promise<OldServer> {
    const server = createServer();
    const old = new OldServer(server);
    server.on('request', (req, res) => {
      if (old.down) {
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const answer = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (req.url === routes.version()) {
          old.versionProbes += 1;
          if (old.current) answer(200, { version: '1.0.0', protocolVersion: PROTOCOL_VERSION });
          else if (versionAnswer === 'protocol-2') answer(200, { version: '0.9.5', protocolVersion: 2 });
          else if (versionAnswer === 'protocol-3') answer(200, { version: '0.9.8', protocolVersion: 3 });
          else if (versionAnswer === 'not-found')
            answer(404, { error: { code: 'WEFT_NOT_FOUND', message: 'no route' } });
          else answer(200, { version: '0.9.0', protocolVersion: 1 });
          return;
        }
        if (req.url !== routes.callBatch()) return answer(200, {});
        const raw = new Uint8Array(Buffer.concat(chunks));
        const unread = old.current ? [] : UNREAD_EXT_TYPES[versionAnswer];
        if (extTypesIn(raw).some((type) => unread.includes(type))) {
          old.refusedCompact += 1;
          return answer(400, { error: { code: 'WEFT_INVALID_REQUEST', message: 'malformed msgpack body' } });
        }
        const { items } = decodeMsgpack(raw) as { items: Record<string, unknown>[] };
        for (const item of items) {
          old.items.push(item);
          if (item.type === 'value') continue;
          const key = `${String(item.type)} ${String(item.id)}`;
          old.arrivals.set(key, (old.arrivals.get(key) ?? 0) + 1);
        }
        answer(200, { accepted: items.length });
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return old;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The ext types anywhere in one msgpack value (walked, not decoded, so no extension is applied). */
export function extTypesIn(bytes: Uint8Array): number[] {
  const types: number[] = [];
  const walk = (pos: number): number => {
    const lead = bytes[pos]!;
    if (lead >= 0xd4 && lead <= 0xd8) types.push(bytes[pos + 1]!);
    const { kind, headerLength, size } = readMsgpackHeader(bytes, pos);
    // ext 8/16/32: the type is the last byte of the header.
    if (lead >= 0xc7 && lead <= 0xc9) types.push(bytes[pos + headerLength - 1]!);
    let next = pos + headerLength;
    if (kind === MsgpackKind.Array) for (let i = 0; i < size; i++) next = walk(next);
    else if (kind === MsgpackKind.Map) for (let i = 0; i < size * 2; i++) next = walk(next);
    else next += size;
    return next;
  };
  walk(0);
  return types;
}
