import type { DatasetRefs } from '../datasets/index.js';
import { PublishFailedError } from '../errors/index.js';
import type { FileStore } from '../files/index.js';
import { WeftFile } from '../files/index.js';
import type { ObjectStore } from '../objects/index.js';
import type { Epoch } from '../pipeline/index.js';
import type { ValueHooks } from './value-rules.js';

/**
 * What a call records for an object or a byte buffer in its values: a
 * dataset's table ref, a file's `File` version, a saved object's ref — or
 * `undefined` to walk it as data. Built by the client from its stores.
 */
export class ValueRefs implements ValueHooks {
  readonly #store: ObjectStore;
  readonly #files: FileStore;
  readonly #datasets: DatasetRefs;

  constructor({ store, files, datasets }: { store: ObjectStore; files: FileStore; datasets: DatasetRefs }) {
    this.#store = store;
    this.#files = files;
    this.#datasets = datasets;
  }

  onObject(value: object, epoch: Epoch): string | Promise<string> | undefined {
    // Asked for every container of every call: a plain object or array can
    // only be a published value, so skip the brand and class checks for it.
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null || Array.isArray(value))
      return this.#store.publishedRef(value);
    const dataset = this.#datasets.hook(value);
    if (dataset !== undefined) return dataset;
    if (WeftFile.isInstance(value)) {
      return this.#files
        .saveFile(value, epoch)
        .then((info) => this.#store.save(info, 'File', epoch).stored)
        .then((stored) => {
          if (stored === undefined) throw new PublishFailedError('File');
          return stored.uri;
        });
    }
    return this.#store.hook(value, epoch);
  }

  onBlob(bytes: Uint8Array, epoch: Epoch): Promise<string> | undefined {
    return this.#files.hook(bytes, epoch);
  }
}
