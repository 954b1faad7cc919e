import { fileCreateResponse, routes, type WeftError } from '@weft/protocol';
import { type ApiClient, BadResponseError } from '../transport/index.js';

/** What became of one upload; like the transport's `SendResult`, not thrown. */
export type FileUploadResult =
  | { status: 'sent'; digest: string; size: number }
  | { status: 'retryable'; retryAfterMs?: number | undefined; error: WeftError }
  | { status: 'rejected'; error: WeftError };

/**
 * The file routes (raw bytes in, a receipt out; raw bytes back), over the
 * client's one {@link ApiClient}.
 */
export class FileApi {
  readonly #client: ApiClient;

  constructor(client: ApiClient) {
    this.#client = client;
  }

  /** POSTs the bytes to `routes.fileCreate(project)`. Never throws. */
  async upload(project: string, bytes: Uint8Array): Promise<FileUploadResult> {
    const path = routes.fileCreate(project);
    const result = await this.#client.postBytes(path, bytes);
    if (result.status !== 'sent') return result;
    const receipt = fileCreateResponse.safeParse(result.body);
    if (!receipt.success) {
      return {
        status: 'retryable',
        error: new BadResponseError(
          'POST',
          this.#client.url + path,
          'the body is not a file receipt',
          receipt.error,
        ),
      };
    }
    return { status: 'sent', digest: receipt.data.digest, size: receipt.data.size };
  }

  /**
   * The bytes stored under `digest`.
   * @throws `WEFT_NOT_FOUND`, `WEFT_HTTP_ERROR` or `WEFT_SERVER_UNREACHABLE`.
   */
  read(project: string, digest: string): Promise<Uint8Array> {
    return this.#client.getBytes(routes.fileRead(project, digest));
  }
}
