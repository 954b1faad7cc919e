import type { WeftClient } from '../client/weft-client.js';
import { backoffDelayMs } from '../transport/backoff.js';
import { Dataset } from './dataset.js';

/** Publish attempts per dataset found in a call before its ref becomes an error marker. */
const PUBLISH_ATTEMPTS = 6;

/**
 * Records a {@link Dataset} found in a call's inputs or output as its table
 * ref: the dataset is published once per instance (only the rows the server
 * lacks travel; see `Dataset.publish`) and the ref is given once the table is
 * stored. The promise is a pending digest of the call: it gates the record,
 * never a pool slot. A server that is unreachable or answers 408/429/5xx is
 * retried with backoff; a definitive failure rejects, and the call records an
 * error marker in place of the ref.
 */
export class DatasetRefs {
  readonly #client: WeftClient;
  readonly #saving = new WeakMap<Dataset, Promise<string>>();

  constructor(client: WeftClient) {
    this.#client = client;
  }

  /** The Sanitizer's `onObject` for datasets: a promise of the table ref, `undefined` for other values. */
  hook(value: object): Promise<string> | undefined {
    if (!(value instanceof Dataset)) return undefined;
    let saving = this.#saving.get(value);
    if (saving === undefined) {
      saving = this.#publish(value);
      // A failed publish is retried by the next call holding the dataset, not remembered.
      saving.catch(() => this.#saving.delete(value));
      this.#saving.set(value, saving);
    }
    return saving;
  }

  async #publish(dataset: Dataset): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await dataset.publish({ client: this.#client })).table;
      } catch (error) {
        const retryable = (error as { isRetryable?: unknown })?.isRetryable === true;
        if (!retryable || attempt >= PUBLISH_ATTEMPTS || this.#client.closed) throw error;
        const wait = Math.max(
          (error as { retryAfterMs?: number }).retryAfterMs ?? 0,
          backoffDelayMs(attempt, { baseMs: 250, maxMs: 5_000 }),
        );
        await new Promise((resolve) => setTimeout(resolve, wait).unref());
      }
    }
  }
}
