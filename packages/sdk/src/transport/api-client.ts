import type { WeftError } from '@weft/protocol';
import {
  CONTENT_TYPE_JSON,
  CONTENT_TYPE_MSGPACK,
  CONTENT_TYPE_OCTET_STREAM,
  decodeMsgpack,
  encodeMsgpack,
  errorResponse,
  routes,
} from '@weft/protocol';
import { Pool } from 'undici';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import { parseRetryAfter } from './retry-after.js';
import { COMPACT_FORMS_PROTOCOL_VERSION, callBatchBodyV1, ServerProtocol } from './server-protocol.js';
import {
  BadResponseError,
  HttpError,
  type HttpErrorDetails,
  isRetryableStatus,
  NotFoundError,
  ServerUnreachableError,
} from './transport-errors.js';

/** Options of {@link ApiClient}. */
export interface ApiClientOptions {
  /** Base URL of the Weft server, e.g. `http://127.0.0.1:7420`; a path prefix is kept. */
  url: string;
  /** Sent as `authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /**
   * How long to wait for the response headers, and then for the body, of one request.
   * @default 30_000
   */
  requestTimeoutMs?: number | undefined;
  /**
   * Keep-alive connections to the server.
   * @default 4
   */
  connections?: number | undefined;
}

const optionsSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  apiKey: z.string().min(1, 'must not be empty').optional(),
  requestTimeoutMs: z.number().int().positive().default(30_000),
  connections: z.number().int().positive().max(256).default(4),
});

/**
 * What became of one POST. Not exceptional, so not thrown: the batcher
 * `switch`es on `status`.
 */
export type SendResult =
  | { status: 'sent'; body: unknown }
  /** Network errors, timeouts, 408, 429, 5xx, and 2xx bodies that cannot be read: the same request may succeed later. */
  | {
      status: 'retryable';
      retryAfterMs?: number | undefined;
      error: WeftError;
      /** The HTTP status, when the server answered (none for a network error or a timeout). */
      statusCode?: number | undefined;
    }
  /** Any other 4xx. `index` is the rejected batch item, when the server's error body names one. */
  | { status: 'rejected'; error: HttpError; index?: number | undefined; statusCode: number };

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Uint8Array;
}

/**
 * The SDK's HTTP client: one undici `Pool` (keep-alive) per client. `post`
 * never throws and classifies the outcome; `getJson`/`postJson` serve the read
 * API and throw typed {@link WeftError}s.
 */
export class ApiClient {
  /** The server's base URL, without a trailing slash. */
  readonly url: string;
  #pool: Pool;
  #basePath: string;
  #authorization: string | undefined;
  #closing: Promise<void> | undefined;
  /** The server's protocol version, learnt before the first call batch (see {@link ApiClient.postCallBatch}). */
  readonly protocol = new ServerProtocol<SendResult>((path) => this.get(path));

  constructor(options: ApiClientOptions) {
    const { url, apiKey, requestTimeoutMs, connections } = parseOptions('ApiClient', optionsSchema, options);
    const parsed = new URL(url);
    this.#basePath = parsed.pathname.replace(/\/+$/, '');
    this.url = `${parsed.origin}${this.#basePath}`;
    this.#authorization = apiKey === undefined ? undefined : `Bearer ${apiKey}`;
    this.#pool = new Pool(parsed.origin, {
      connections,
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      connectTimeout: Math.min(requestTimeoutMs, 10_000),
    });
  }

  /**
   * POSTs `body` as msgpack: a `Uint8Array` is taken as already encoded,
   * anything else is encoded here. Never throws.
   */
  post(path: string, body: Uint8Array | unknown): Promise<SendResult> {
    const bytes = body instanceof Uint8Array ? body : encodeMsgpack(body);
    return this.#send('POST', path, bytes, CONTENT_TYPE_MSGPACK);
  }

  /**
   * POSTs an encoded call batch in the forms the server reads: as it is
   * (compact value markers and call ids) to a server of protocol 2 or more,
   * transcoded to the forms of protocol 1 for an older one. The first batch
   * waits for the one version probe; while the server cannot be reached the
   * probe's failure is the answer, classified like {@link post}. A 400 naming
   * no item to a compact body asks again (the server may have been replaced
   * by an older one) and, if so, sends the body transcoded. Never throws.
   */
  async postCallBatch(body: Uint8Array): Promise<SendResult> {
    const answer = await this.protocol.answer();
    if ('failure' in answer) return answer.failure;
    if (answer.version < COMPACT_FORMS_PROTOCOL_VERSION)
      return this.post(routes.callBatch(), callBatchBodyV1(body));
    const result = await this.post(routes.callBatch(), body);
    // A 400 naming no item is how a server older than the compact forms refuses
    // them (malformed msgpack): it may have replaced the one probed. Ask again.
    if (result.status !== 'rejected' || result.statusCode !== 400 || result.index !== undefined)
      return result;
    this.protocol.forget();
    const again = await this.protocol.answer();
    if ('failure' in again) return again.failure;
    if (again.version >= COMPACT_FORMS_PROTOCOL_VERSION) return result;
    return this.post(routes.callBatch(), callBatchBodyV1(body));
  }

  /** POSTs `bytes` as `application/octet-stream` (the file routes), classified like {@link post}. Never throws. */
  postBytes(path: string, bytes: Uint8Array): Promise<SendResult> {
    return this.#send('POST', path, bytes, CONTENT_TYPE_OCTET_STREAM);
  }

  /**
   * GETs a raw-bytes resource (a stored file) and returns its body as is.
   * @throws `WEFT_NOT_FOUND`, `WEFT_HTTP_ERROR` or `WEFT_SERVER_UNREACHABLE`.
   */
  async getBytes(path: string): Promise<Uint8Array> {
    let response: RawResponse;
    try {
      response = await this.#request('GET', path, undefined, undefined);
    } catch (cause) {
      throw new ServerUnreachableError(this.url, cause);
    }
    if (response.statusCode < 200 || response.statusCode >= 300) throw this.#httpError('GET', path, response);
    return response.bytes;
  }

  /** GETs `path` and classifies the answer like {@link ApiClient.post}; the circuit breaker probes with it. */
  get(path: string): Promise<SendResult> {
    return this.#send('GET', path, undefined, undefined);
  }

  /** GETs JSON validated by `schema`. Throws `WEFT_SERVER_UNREACHABLE`, `WEFT_NOT_FOUND`, `WEFT_HTTP_ERROR` or `WEFT_BAD_RESPONSE`. */
  getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    return this.#json('GET', path, undefined, schema);
  }

  /** POSTs `body` as JSON and returns the response validated by `schema`; throws like {@link ApiClient.getJson}. */
  postJson<T>(path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return this.#json('POST', path, JSON.stringify(body), schema);
  }

  /** Waits for in-flight requests, then closes the connections. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#pool.close();
    return this.#closing;
  }

  /** Aborts in-flight requests and closes the connections at once. */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }

  async #send(
    method: string,
    path: string,
    body: Uint8Array | undefined,
    contentType: string | undefined,
  ): Promise<SendResult> {
    let response: RawResponse;
    try {
      response = await this.#request(method, path, body, contentType);
    } catch (cause) {
      return { status: 'retryable', error: new ServerUnreachableError(this.url, cause) };
    }
    const { statusCode } = response;
    if (statusCode >= 200 && statusCode < 300) {
      try {
        return { status: 'sent', body: parseBody(response) };
      } catch (cause) {
        // A 2xx whose body does not parse was not verifiably acknowledged (a
        // proxy may have mangled it); sending again is harmless because ingest
        // is an idempotent upsert, while trusting it could lose records.
        const error = new BadResponseError(method, this.url + path, 'the body does not parse', cause);
        return { status: 'retryable', error };
      }
    }
    const error = this.#httpError(method, path, response);
    if (isRetryableStatus(statusCode))
      return { status: 'retryable', retryAfterMs: error.retryAfterMs, error, statusCode };
    return { status: 'rejected', error, index: error.index, statusCode };
  }

  async #json<T>(method: string, path: string, body: string | undefined, schema: z.ZodType<T>): Promise<T> {
    let response: RawResponse;
    try {
      response = await this.#request(method, path, body, body === undefined ? undefined : CONTENT_TYPE_JSON);
    } catch (cause) {
      throw new ServerUnreachableError(this.url, cause);
    }
    if (response.statusCode < 200 || response.statusCode >= 300)
      throw this.#httpError(method, path, response);
    let value: unknown;
    try {
      value = parseBody(response);
    } catch (cause) {
      throw new BadResponseError(method, this.url + path, 'the body does not parse', cause);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw new BadResponseError(method, this.url + path, `${issue?.message ?? 'unexpected shape'}${where}`);
    }
    return parsed.data;
  }

  async #request(
    method: string,
    path: string,
    body: Uint8Array | string | undefined,
    contentType: string | undefined,
  ): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: `${CONTENT_TYPE_JSON}, ${CONTENT_TYPE_MSGPACK}` };
    if (contentType !== undefined) headers['content-type'] = contentType;
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;
    const response = await this.#pool.request({
      method: method as 'GET',
      path: this.#basePath + path,
      headers,
      body,
    });
    // Always drain the body, even for errors: an unread body pins the keep-alive connection.
    const bytes = new Uint8Array(await response.body.arrayBuffer());
    return { statusCode: response.statusCode, headers: response.headers, bytes };
  }

  #httpError(method: string, path: string, response: RawResponse): HttpError {
    const details: HttpErrorDetails = {
      method,
      url: this.url + path,
      statusCode: response.statusCode,
      retryAfterMs: parseRetryAfter(header(response, 'retry-after'), Date.now()),
    };
    try {
      const parsed = errorResponse.safeParse(parseBody(response));
      if (parsed.success) {
        const { code, message, path: field, index } = parsed.data.error;
        Object.assign(details, { serverCode: code, serverMessage: message, path: field, index });
      }
    } catch {
      // An error body that does not parse (a proxy's HTML page) still leaves the status code to act on.
    }
    return response.statusCode === 404 ? new NotFoundError(details) : new HttpError(details);
  }
}

function header(response: RawResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** JSON or msgpack by content type; an empty body is `undefined`; other types come back as text. */
function parseBody(response: RawResponse): unknown {
  if (response.bytes.byteLength === 0) return undefined;
  const type = header(response, 'content-type') ?? '';
  if (type.includes('msgpack')) return decodeMsgpack(response.bytes);
  const text = new TextDecoder('utf-8', { fatal: true }).decode(response.bytes);
  if (type.includes('json')) return JSON.parse(text);
  return text;
}
