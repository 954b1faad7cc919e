import { type WeftError, fileCreateResponse, routes } from '@weft/protocol';
import { Pool } from 'undici';
import { parseRetryAfter } from '../transport/retry-after.js';
import {
  BadResponseError,
  HttpError,
  type HttpErrorDetails,
  isRetryableStatus,
  NotFoundError,
  ServerUnreachableError,
} from '../transport/transport-errors.js';

/** What became of one upload; like the transport's `SendResult`, not thrown. */
export type FileUploadResult =
  | { status: 'sent'; digest: string; size: number }
  | { status: 'retryable'; retryAfterMs?: number | undefined; error: WeftError }
  | { status: 'rejected'; error: WeftError };

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
}

/** Options of {@link FileApi}. */
export interface FileApiOptions {
  url: string;
  apiKey?: string | undefined;
  /** @default 60_000 */
  requestTimeoutMs?: number | undefined;
  /** @default 2 */
  connections?: number | undefined;
}

/**
 * Raw-bytes HTTP for the file routes (`application/octet-stream` in and out),
 * which the msgpack/JSON client does not speak. Its own small keep-alive
 * pool, so a large upload never sits in front of a call batch.
 */
export class FileApi {
  readonly #pool: Pool;
  readonly #url: string;
  readonly #basePath: string;
  readonly #authorization: string | undefined;

  constructor(options: FileApiOptions) {
    const parsed = new URL(options.url);
    this.#basePath = parsed.pathname.replace(/\/+$/, '');
    this.#url = `${parsed.origin}${this.#basePath}`;
    this.#authorization = options.apiKey === undefined ? undefined : `Bearer ${options.apiKey}`;
    const timeout = options.requestTimeoutMs ?? 60_000;
    this.#pool = new Pool(parsed.origin, {
      connections: options.connections ?? 2,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connectTimeout: Math.min(timeout, 10_000),
    });
  }

  /** POSTs the bytes to `routes.fileCreate(project)`. Never throws. */
  async upload(project: string, bytes: Uint8Array): Promise<FileUploadResult> {
    const path = routes.fileCreate(project);
    let response: RawResponse;
    try {
      response = await this.#request('POST', path, bytes);
    } catch (cause) {
      return { status: 'retryable', error: new ServerUnreachableError(this.#url, cause) };
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      try {
        const parsed = fileCreateResponse.parse(JSON.parse(new TextDecoder().decode(response.body)));
        return { status: 'sent', digest: parsed.digest, size: parsed.size };
      } catch (cause) {
        return { status: 'retryable', error: new BadResponseError('POST', this.#url + path, 'the body is not a file receipt', cause) };
      }
    }
    const error = this.#httpError('POST', path, response);
    return isRetryableStatus(response.statusCode)
      ? { status: 'retryable', retryAfterMs: error.retryAfterMs, error }
      : { status: 'rejected', error };
  }

  /**
   * The bytes stored under `digest`.
   * @throws `WEFT_NOT_FOUND`, `WEFT_HTTP_ERROR` or `WEFT_SERVER_UNREACHABLE`.
   */
  async read(project: string, digest: string): Promise<Uint8Array> {
    const path = routes.fileRead(project, digest);
    let response: RawResponse;
    try {
      response = await this.#request('GET', path, undefined);
    } catch (cause) {
      throw new ServerUnreachableError(this.#url, cause);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
    throw this.#httpError('GET', path, response);
  }

  /** Closes the connections at once, aborting what is in flight. */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }

  async #request(method: 'GET' | 'POST', path: string, body: Uint8Array | undefined): Promise<RawResponse> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/octet-stream';
    if (this.#authorization !== undefined) headers.authorization = this.#authorization;
    const response = await this.#pool.request({ method, path: this.#basePath + path, headers, body });
    // Always drain the body: an unread body pins the keep-alive connection.
    const bytes = new Uint8Array(await response.body.arrayBuffer());
    return { statusCode: response.statusCode, headers: response.headers, body: bytes };
  }

  #httpError(method: string, path: string, response: RawResponse): HttpError {
    const retryAfter = response.headers['retry-after'];
    const details: HttpErrorDetails = {
      method,
      url: this.#url + path,
      statusCode: response.statusCode,
      retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, Date.now()),
    };
    try {
      const parsed = JSON.parse(new TextDecoder().decode(response.body)) as { error?: { code?: unknown; message?: unknown } };
      if (typeof parsed.error?.code === 'string') details.serverCode = parsed.error.code;
      if (typeof parsed.error?.message === 'string') details.serverMessage = parsed.error.message;
    } catch {
      // A body that is not JSON (a proxy's page) still leaves the status to act on.
    }
    return response.statusCode === 404 ? new NotFoundError(details) : new HttpError(details);
  }
}
