import {
  formatRef,
  isRefUri,
  objectRead,
  parseRef,
  routes,
  type TableRowsResponse,
  tableRowsResponse,
} from '@weft/protocol';
import { parseNameSelector } from '../objects/index.js';
import { type DatasetHost, resolveDatasetHost, tableDestinationOf } from './dataset-host.js';
import { Dataset } from './dataset.js';
import { InvalidDatasetOptionsError } from './errors/index.js';
import type { Row } from './load.js';
import type { TableDestination } from './table-delivery.js';

/** How a view reads pages: its client's API client. */
type RowReader = TableDestination['api'];

/** Options of {@link openDataset}. */
export interface OpenDatasetOptions {
  /** The `WeftClient` to use (what `weft.init` returns). @default the default client */
  client?: DatasetHost;
  /** Rows fetched per request while iterating. @default 1_000 */
  pageRows?: number;
}

/** What a view is made of: how it reads, its table, row count, name, page size and the ref it was opened as. */
interface RemoteDatasetParts {
  api: RowReader;
  table: string;
  length: number;
  name: string | undefined;
  pageRows: number;
  version: string;
}

/** One row of a stored table, with its stable ref. */
export interface RemoteRow {
  index: number;
  digest: string;
  /** `weft:///<project>/table/<table digest>/row/<row digest>`: stable for as long as the row's content is. */
  ref: string;
  value: Row;
}

/**
 * A published dataset on the server, read lazily: `length` is known at once,
 * rows are fetched a page at a time as you iterate (`for await (const row of
 * view)`) or ask for one (`row(i)`). Nothing is held beyond the current page.
 */
export class RemoteDataset implements AsyncIterable<RemoteRow> {
  readonly name: string | undefined;
  /**
   * What it was opened as, resolved: the dataset's object version
   * (`weft:///<project>/object/<name>:<digest>`, also when opened by a name
   * or label), or its table ref when opened by one.
   */
  readonly ref: string;
  /** `weft:///<project>/table/<digest>` */
  readonly table: string;
  readonly length: number;
  readonly #api: RowReader;
  readonly #project: string;
  readonly #digest: string;
  readonly #pageRows: number;

  /**
   * @internal Use {@link openDataset}. A factory, so the published
   * declarations show a private constructor rather than a stripped one
   * (which would read as a public `new RemoteDataset()`).
   */
  static fromTable(parts: RemoteDatasetParts): RemoteDataset {
    return new RemoteDataset(parts);
  }

  private constructor({ api, table, length, name, pageRows, version }: RemoteDatasetParts) {
    const ref = parseRef(table);
    if (ref.kind !== 'table')
      throw new InvalidDatasetOptionsError('ref', `expected a table ref, got ${table}`);
    this.#api = api;
    this.#project = ref.project;
    this.#digest = ref.digest;
    this.#pageRows = pageRows;
    this.table = table;
    this.length = length;
    this.name = name;
    this.ref = version;
  }

  /** The row at `index` (one request). */
  async row(index: number): Promise<RemoteRow> {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) {
      throw new InvalidDatasetOptionsError(
        'index',
        `must be an integer from 0 to ${this.length - 1}, got ${index}`,
      );
    }
    const page = await this.#page(index, 1);
    return this.#rowOf(page, 0);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RemoteRow> {
    for (let offset = 0; offset < this.length; offset += this.#pageRows) {
      const page = await this.#page(offset, this.#pageRows);
      for (let i = 0; i < page.rows.length; i++) yield this.#rowOf(page, i);
      if (page.rows.length === 0) return;
    }
  }

  /**
   * The row whose digest is `digest` (what a row ref names), or `undefined`.
   * Pages through the table until it is found: the server has no lookup by row digest.
   */
  async rowByDigest(digest: string): Promise<RemoteRow | undefined> {
    for await (const row of this) if (row.digest === digest) return row;
    return undefined;
  }

  /** Fetches every row into a local {@link Dataset} (for `new Evaluation({ dataset })`). */
  async toDataset(name = this.name ?? 'dataset'): Promise<Dataset> {
    const rows: Row[] = [];
    for await (const row of this) rows.push(row.value);
    return new Dataset({ name, rows });
  }

  /**
   * Nothing to release: the view reads through its client's one API client,
   * whose connections `client.shutdown()` closes. Kept so code written for
   * views that held their own connections still runs.
   */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #page(offset: number, limit: number): Promise<TableRowsResponse> {
    const path = `${routes.tableRows(this.#project, this.#digest)}?offset=${offset}&limit=${Math.min(limit, 10_000)}`;
    return this.#api.getJson(path, tableRowsResponse);
  }

  #rowOf(page: TableRowsResponse, i: number): RemoteRow {
    const row = page.rows[i] as TableRowsResponse['rows'][number];
    return {
      index: page.offset + i,
      digest: row.digest,
      ref: formatRef({
        kind: 'table',
        project: this.#project,
        digest: this.#digest,
        path: ['row', row.digest],
      }),
      value: row.value as Row,
    };
  }
}

/**
 * Opens a published dataset lazily by what names it:
 * - its name, with a version, label or digest as `weft.get` takes them:
 *   `'good-answers'` (the latest version), `'good-answers:production'`,
 *   `'good-answers:v3'`, `'good-answers:<digest>'`, in the client's project;
 * - its object ref (what `dataset.publish()` returned,
 *   `weft:///<project>/object/<name>:<digest>`);
 * - its table ref (`weft:///<project>/table/<digest>`).
 * @throws {NotInitializedError} without a client.
 * @throws {InvalidDatasetOptionsError} `ref` names nothing a dataset can be, or an object that is not one.
 * @throws {HttpError} `WEFT_NOT_FOUND` when the server has no such name, version or label.
 */
export async function openDataset(ref: string, options: OpenDatasetOptions = {}): Promise<RemoteDataset> {
  const client = resolveDatasetHost(options.client, 'open a dataset');
  const api = tableDestinationOf(client, 'open a dataset').api;
  const pageRows = options.pageRows ?? 1_000;
  if (!Number.isInteger(pageRows) || pageRows < 1 || pageRows > 10_000) {
    throw new InvalidDatasetOptionsError('pageRows', `must be an integer from 1 to 10,000, got ${pageRows}`);
  }
  const { version, name, value } = await readDatasetObject(client, api, ref);
  let table: unknown = version;
  if (value !== undefined) {
    table = (value as { rows?: unknown } | null)?.rows;
    if (typeof table !== 'string') {
      throw new InvalidDatasetOptionsError(
        'ref',
        `${ref} is not a dataset (its value has no \`rows\` table ref)`,
      );
    }
  }
  const tableRef = parseRef(table as string);
  if (tableRef.kind !== 'table')
    throw new InvalidDatasetOptionsError('ref', `${String(table)} is not a table ref`);
  const first = await api.getJson(
    `${routes.tableRows(tableRef.project, tableRef.digest)}?offset=0&limit=1`,
    tableRowsResponse,
  );
  return RemoteDataset.fromTable({
    api,
    table: table as string,
    length: first.rowCount,
    name,
    pageRows,
    version,
  });
}

/**
 * What `ref` names: a dataset object version (its resolved ref, name and
 * value), or a table (its ref, no value).
 */
async function readDatasetObject(
  client: DatasetHost,
  api: RowReader,
  ref: string,
): Promise<{ version: string; name: string | undefined; value: unknown }> {
  if (!isRefUri(ref)) {
    let selector: ReturnType<typeof parseNameSelector>;
    try {
      selector = parseNameSelector(ref);
    } catch {
      throw new InvalidDatasetOptionsError(
        'ref',
        `expected a dataset name ('qa', 'qa:production', 'qa:v3'), an object ref or a table ref, got ${JSON.stringify(ref)}`,
      );
    }
    const read = await api.getJson(
      routes.objectRead(client.project, selector.name, selector.version),
      objectRead,
    );
    return { version: read.ref, name: selector.name, value: read.value };
  }
  const parsed = parseRef(ref);
  if (parsed.kind === 'table') return { version: ref, name: undefined, value: undefined };
  if (parsed.kind !== 'object') {
    throw new InvalidDatasetOptionsError('ref', `expected a dataset object ref or a table ref, got ${ref}`);
  }
  // Through the client: a version it is still uploading is read once stored.
  return { version: ref, name: parsed.name, value: await client.get(ref) };
}
