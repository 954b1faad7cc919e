import { type Call, formatRef, OBJECT_NAME, tableDigest } from '@weft/protocol';
import type { ObjectRef } from '../objects/index.js';
import type { GetCallsOptions } from '../read/index.js';
import { datasetColumns } from './dataset-columns.js';
import { type DatasetHost, resolveDatasetHost, tableDestinationOf } from './dataset-host.js';
import { InvalidDatasetOptionsError } from './errors/index.js';
import { loadRows, type Row, type RowSource, validateRows } from './load.js';
import { type HashedRows, hashRows } from './row-digests.js';
import { deliverTable } from './table-delivery.js';
import { rowsFromCalls } from './rows-from-calls.js';

/** Options of {@link Dataset.fromCalls}. */
export interface FromCallsOptions {
  /** Name the dataset version is published under. @default 'calls' */
  name?: string;
  /**
   * Turns a call into a row (`undefined` leaves it out). A `sourceCall`
   * column (the call's `weft:///…/call/<id>` ref) is added unless set.
   * @default the call's inputs as columns plus `expected: call.output`
   */
  map?: (call: Call) => Record<string, unknown> | undefined | Promise<Record<string, unknown> | undefined>;
  /** The `WeftClient` to use (what `weft.init` returns). @default the default client */
  client?: DatasetHost;
}

/** Options of `new Dataset`. */
export interface DatasetOptions {
  /** Object name the dataset is published under (letters, digits, `.`, `_`, `-`). */
  name: string;
  /** The rows: plain objects, column name → value. Not copied; do not mutate them afterwards. */
  rows: readonly Row[];
}

/** Options of {@link Dataset.publish}. */
export interface PublishDatasetOptions {
  /** The `WeftClient` to use (what `weft.init` returns). @default the default client */
  client?: DatasetHost;
  /** Most rows per upload request. @default 5_000 */
  chunkRows?: number;
  /**
   * Most bytes of rows (their JSON and digest) per upload request, so a large dataset
   * travels in bodies well under the server's limit (64 MiB by default).
   * @default 8_388_608 (8 MiB)
   */
  chunkBytes?: number;
}

/** Largest `chunkBytes`: leaves room under the server's default 64 MiB body limit for JSON escaping. */
const MAX_CHUNK_BYTES = 48 * 1024 * 1024;

/** A published dataset: its object version, its table, and what publishing cost. */
export interface PublishedDataset {
  /** The dataset object version `{ rows: <table ref>, rowCount, columns }`. */
  ref: ObjectRef;
  /** `weft:///<project>/table/<digest>` */
  table: string;
  rowCount: number;
  /** Rows whose content was sent this time: 0 when the server had them all, 1 after changing one row. */
  uploadedRows: number;
  /** HTTP requests the table upload took (1 when the server already had the table). */
  uploadRequests: number;
}

/**
 * A named list of rows, versioned by content: each row's digest is the
 * SHA-256 of its canonical JSON, the table digest derives from the row
 * digests in order, and publishing stores the rows as a content-addressed
 * table plus a small object version `{ rows: <table ref>, rowCount, columns }` under
 * `name` (`columns`: the rows' top-level keys in the order first written, which
 * the canonical rows do not keep).
 *
 * @example
 * const qa = new weft.Dataset({ name: 'qa', rows: [{ question: '2+2?', expected: '4' }] });
 * const ds = await weft.Dataset.load('qa', { path: 'qa.jsonl' });
 */
export class Dataset {
  readonly name: string;
  readonly rows: readonly Row[];
  #hashed: Promise<HashedRows> | undefined;

  /**
   * @throws {InvalidDatasetOptionsError} a bad name.
   * @throws {InvalidDatasetRowsError} a row that is not a plain object.
   */
  constructor(options: DatasetOptions) {
    if (typeof options?.name !== 'string' || !OBJECT_NAME.test(options.name)) {
      throw new InvalidDatasetOptionsError(
        'name',
        `must be 1–256 letters, digits, ".", "_" or "-", starting with a letter or digit, got ${JSON.stringify(options?.name)}`,
      );
    }
    if (!Array.isArray(options.rows)) {
      throw new InvalidDatasetOptionsError('rows', 'must be an array of plain objects');
    }
    this.name = options.name;
    this.rows = validateRows(options.rows);
  }

  /**
   * Makes a dataset of the calls matching `query` (the filters of
   * `getCalls`: feedback, attributes, session, text, …; at most 10,000 calls
   * unless `query.limit` says otherwise), one row per call, each pointing
   * back to its source call in `sourceCall`, and publishes it as a new
   * version of `name`. An `Evaluation` runs on the result directly.
   *
   * @example
   * const good = await weft.Dataset.fromCalls({ feedback: { name: 'thumbs', value: true } }, { name: 'good-answers' });
   */
  static async fromCalls(query: GetCallsOptions = {}, options: FromCallsOptions = {}): Promise<Dataset> {
    const client = resolveDatasetHost(options.client, 'Dataset.fromCalls');
    const dataset = new Dataset({
      name: options.name ?? 'calls',
      rows: await rowsFromCalls(client, query, options.map),
    });
    await dataset.publish({ client });
    return dataset;
  }

  /** Loads rows from JSONL, CSV or an array (see {@link loadRows}) into a dataset. */
  static async load(name: string, source: RowSource): Promise<Dataset> {
    return new Dataset({ name, rows: await loadRows(source) });
  }

  get length(): number {
    return this.rows.length;
  }

  /** Each row's digest, computed once, in slices off the caller's turn. */
  async rowDigests(): Promise<string[]> {
    return (await this.#hash()).digests;
  }

  #hash(): Promise<HashedRows> {
    this.#hashed ??= hashRows(this.rows);
    return this.#hashed;
  }

  /** The table digest: derived from the row digests in order. */
  async digest(): Promise<string> {
    return tableDigest(await this.rowDigests());
  }

  /**
   * Uploads the rows the server lacks (in chunks bounded by `chunkRows` and
   * `chunkBytes`; nothing when the server already has this table, one row
   * after changing one row) and saves the dataset's object version.
   * @throws {InvalidDatasetOptionsError} a bad `chunkRows` or `chunkBytes`.
   * @throws {NotInitializedError} without a client.
   */
  async publish(options: PublishDatasetOptions = {}): Promise<PublishedDataset> {
    const client = resolveDatasetHost(options.client, 'Dataset.publish');
    const { chunkRows = 5_000, chunkBytes = 8 * 1024 * 1024 } = options;
    if (!Number.isInteger(chunkRows) || chunkRows < 1 || chunkRows > 100_000) {
      throw new InvalidDatasetOptionsError(
        'chunkRows',
        `must be an integer from 1 to 100,000, got ${chunkRows}`,
      );
    }
    if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > MAX_CHUNK_BYTES) {
      throw new InvalidDatasetOptionsError(
        'chunkBytes',
        `must be an integer from 1 to ${MAX_CHUNK_BYTES} (48 MiB), got ${chunkBytes}`,
      );
    }
    const hashed = await this.#hash();
    // Through the client's one API client; kept in its outbox when the server cannot take it now.
    const upload = await deliverTable(tableDestinationOf(client, 'Dataset.publish'), this.rows, hashed, {
      chunkRows,
      chunkBytes,
    });
    const table = formatRef({ kind: 'table', project: client.project, digest: upload.digest, path: [] });
    const columns = datasetColumns(this.rows);
    const value = { rows: table, rowCount: this.rows.length, ...(columns.length > 0 && { columns }) };
    const ref = await client.publish(value, { name: this.name });
    return {
      ref,
      table,
      rowCount: this.rows.length,
      uploadedRows: upload.uploadedRows,
      uploadRequests: upload.requests,
    };
  }
}
