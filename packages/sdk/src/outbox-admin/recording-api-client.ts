import { ApiClient, type SendResult } from '../transport/index.js';

/** A send that did not go through: why a replay stopped. */
export type SendFailure = Exclude<SendResult, { status: 'sent' }>;

/**
 * An {@link ApiClient} that remembers its last failed POST. `createReplaySender`
 * answers only `false` when the server cannot take records; the last failure
 * tells an operator why (unreachable, credentials refused, server error).
 */
export class RecordingApiClient extends ApiClient {
  #lastFailure: SendFailure | undefined;

  /** The most recent POST that was not acknowledged, since the last {@link RecordingApiClient.forgetFailure}. */
  get lastFailure(): SendFailure | undefined {
    return this.#lastFailure;
  }

  forgetFailure(): void {
    this.#lastFailure = undefined;
  }

  override async post(path: string, body: Uint8Array | unknown): Promise<SendResult> {
    const result = await super.post(path, body);
    if (result.status !== 'sent') this.#lastFailure = result;
    return result;
  }

  /** A failed version probe is the failure too (the batch POST itself goes through {@link post}). */
  override async postCallBatch(body: Uint8Array): Promise<SendResult> {
    const result = await super.postCallBatch(body);
    if (result.status !== 'sent') this.#lastFailure = result;
    return result;
  }

  /** File records of the outbox are replayed as raw bytes. */
  override async postBytes(path: string, bytes: Uint8Array): Promise<SendResult> {
    const result = await super.postBytes(path, bytes);
    if (result.status !== 'sent') this.#lastFailure = result;
    return result;
  }
}
