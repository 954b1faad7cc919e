import { decodeMsgpack, encodeMsgpack, routes } from '@weft/protocol';

/**
 * The first protocol version whose server reads the compact value marker
 * (msgpack ext 0x57) and the compact call id (ext 0x55) in call batches.
 * Servers before it answer such a body 400 (malformed msgpack).
 */
export const COMPACT_FORMS_PROTOCOL_VERSION = 2;

/** What a probe needs of a GET's outcome (the shape of `ApiClient`'s `SendResult`). */
export type ProbeResult = { status: 'sent'; body: unknown } | { status: 'retryable' | 'rejected' };

/** What the server said about its protocol, or the failed probe (`R`, not sent) that said nothing. */
export type ProtocolAnswer<R> = { version: number } | { failure: R };

/**
 * The protocol version of one server, learnt once: the first call batch to it
 * waits for one `GET /version` (concurrent batches share it) and every
 * later batch reads the cached answer.
 *
 * A 2xx with an integer `protocolVersion` is that version; a 2xx without one
 * or any other 4xx (a 404 from a server that predates the route) means 1,
 * whose forms every server reads. An unreachable or failing server (network
 * error, 408, 429, 5xx) decides nothing: its failure is handed back, so the
 * batch takes the normal failure path (retry, outbox, circuit), and the next
 * batch probes again.
 */
export class ServerProtocol<R extends ProbeResult> {
  readonly #get: (path: string) => Promise<R>;
  #version: number | undefined;
  #probing: Promise<ProtocolAnswer<R>> | undefined;
  #probes = 0;

  constructor(get: (path: string) => Promise<R>) {
    this.#get = get;
  }

  /** `GET /version` requests made so far. */
  get probes(): number {
    return this.#probes;
  }

  /** Forgets the answer: the next {@link answer} probes again (a compact body was refused as malformed). */
  forget(): void {
    this.#version = undefined;
  }

  /** The server's protocol version, probing once if it is not known yet. */
  answer(): Promise<ProtocolAnswer<R>> | ProtocolAnswer<R> {
    if (this.#version !== undefined) return { version: this.#version };
    this.#probing ??= this.#probe().finally(() => {
      this.#probing = undefined;
    });
    return this.#probing;
  }

  async #probe(): Promise<ProtocolAnswer<R>> {
    this.#probes += 1;
    const result = await this.#get(routes.version());
    if (result.status === 'retryable') return { failure: result };
    const reported =
      result.status === 'sent'
        ? (result.body as { protocolVersion?: unknown } | undefined)?.protocolVersion
        : undefined;
    this.#version = typeof reported === 'number' && Number.isInteger(reported) ? reported : 1;
    return { version: this.#version };
  }
}

/**
 * A call batch body in the forms of protocol 1, for a server older than
 * {@link COMPACT_FORMS_PROTOCOL_VERSION}: decoded (compact markers become
 * `{ _weft: 'value', digest }`, compact ids their strings) and encoded
 * again. The slow path only old servers pay: one full decode and encode per
 * request. A body that does not decode is sent as it is (the server's answer
 * then names what is wrong).
 */
export function callBatchBodyV1(body: Uint8Array): Uint8Array {
  let decoded: unknown;
  try {
    decoded = decodeMsgpack(body);
  } catch {
    return body;
  }
  return encodeMsgpack(decoded);
}
