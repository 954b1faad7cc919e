import { type CallItem, decodeMsgpack, encodeMsgpack, fillImpliedSummary, routes } from '@weft/protocol';

/**
 * The first protocol version whose server reads every form the SDK writes in
 * call batches: the compact value marker (msgpack ext 0x57) and call id (ext
 * 0x55) from 2; value items' compact digests (ext 0x44) and complete records
 * without the `latencyMs` they imply from 3; records without the `status`
 * their exception implies from 4. Servers before 2 answer such a body 400
 * (malformed msgpack); a server of 2 would refuse the digests, one of 3 would
 * store summaries without their status.
 */
export const COMPACT_FORMS_PROTOCOL_VERSION = 4;

/** What a probe needs of a GET's outcome (the shape of `ApiClient`'s `SendResult`). */
export type ProbeResult =
  | { status: 'sent'; body: unknown }
  | { status: 'retryable' }
  | { status: 'rejected'; statusCode: number };

/**
 * How long a refused probe's stand-in answer (protocol 1) is used before the
 * client asks again: a 401/403 from a proxy, or another 4xx that is not
 * about the route, says nothing about the server's version.
 */
export const REFUSED_PROBE_RETRY_MS = 30_000;

/** What the server said about its protocol, or the failed probe (`R`, not sent) that said nothing. */
export type ProtocolAnswer<R> = { version: number } | { failure: R };

/**
 * The protocol version of one server, learnt once: the first call batch to it
 * waits for one `GET /version` (concurrent batches share it) and every
 * later batch reads the cached answer.
 *
 * A 2xx with an integer `protocolVersion` is that version; a 2xx without one
 * or a 404 (a server that predates the route) means 1, whose forms every
 * server reads; both are kept for the client's life. Another 4xx (a proxy's
 * 401/403, a 400) is no answer about the version: protocol 1 is used for
 * {@link REFUSED_PROBE_RETRY_MS}, then the next batch asks again — kept for
 * the client's life, one refusal pinned the slow transcoding path to a
 * server that reads the compact forms. An unreachable or failing server
 * (network error, 408, 429, 5xx) decides nothing: its failure is handed
 * back, so the batch takes the normal failure path (retry, outbox,
 * circuit), and the next batch probes again.
 */
export class ServerProtocol<R extends ProbeResult> {
  readonly #get: (path: string) => Promise<R>;
  readonly #now: () => number;
  #version: number | undefined;
  /** When a stand-in answer (after a refused probe) runs out; undefined for a real answer. */
  #standInUntil: number | undefined;
  #probing: Promise<ProtocolAnswer<R>> | undefined;
  #probes = 0;

  constructor(get: (path: string) => Promise<R>, now: () => number = Date.now) {
    this.#get = get;
    this.#now = now;
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
    if (this.#version !== undefined && (this.#standInUntil === undefined || this.#now() < this.#standInUntil))
      return { version: this.#version };
    this.#probing ??= this.#probe().finally(() => {
      this.#probing = undefined;
    });
    return this.#probing;
  }

  async #probe(): Promise<ProtocolAnswer<R>> {
    this.#probes += 1;
    const result = await this.#get(routes.version());
    if (result.status === 'retryable') return { failure: result };
    const refused = result.status === 'rejected' && result.statusCode !== 404;
    this.#standInUntil = refused ? this.#now() + REFUSED_PROBE_RETRY_MS : undefined;
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
 * `{ _weft: 'value', digest }`, compact ids and digests their strings),
 * each record's implied `latencyMs` and `status` put back, and encoded
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
  const items = (decoded as { items?: unknown } | undefined)?.items;
  if (Array.isArray(items))
    for (const item of items)
      if (typeof item === 'object' && item !== null) fillImpliedSummary(item as CallItem);
  return encodeMsgpack(decoded);
}
