import type { DatasetHost } from './dataset-host.js';
import { Dataset } from './dataset.js';

/**
 * Records a {@link Dataset} found in a call's inputs or output as its table
 * ref: the dataset is published once per instance (only the rows the server
 * lacks travel; see `Dataset.publish`) and the ref is given once the table is
 * stored or kept in the outbox (see `deliverTable`). The promise is a pending
 * digest of the call: it gates the record, never a pool slot. A definitive
 * failure (the server refused the table) rejects, and the call records an
 * error marker in place of the ref.
 */
export class DatasetRefs {
  readonly #client: DatasetHost;
  readonly #saving = new WeakMap<Dataset, Promise<string>>();

  constructor(client: DatasetHost) {
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
    return (await dataset.publish({ client: this.#client })).table;
  }
}
