import type { WeftClient } from '../client/index.js';
import { Dataset, openDataset, RemoteDataset, type Row, rowDigests } from '../datasets/index.js';
import type { EvaluationDataset } from './evaluation-options.js';

/** The rows a run evaluates, and how it records where they came from. */
export interface RunRows {
  rows: readonly Row[];
  /** Each row's digest, by index. */
  digests: readonly string[];
  /** A `Dataset` in memory, published by the run. */
  local: Dataset | undefined;
  /** The published version the rows were read from (a dataset given by name, ref or `RemoteDataset`). */
  published: string | undefined;
}

/**
 * The rows of an evaluation's dataset: a `Dataset` or an array as they are;
 * a published dataset — given by name, label or ref (opened through
 * `client`), or as a `RemoteDataset` — read from the server page by page,
 * with the row digests the server has for them.
 *
 * @throws {NotInitializedError} a dataset named by a string, with no client to open it.
 */
export async function runRows(dataset: EvaluationDataset, client: WeftClient | undefined): Promise<RunRows> {
  if (dataset instanceof Dataset) {
    return { rows: dataset.rows, digests: await dataset.rowDigests(), local: dataset, published: undefined };
  }
  if (Array.isArray(dataset)) {
    const rows = dataset as readonly Row[];
    return { rows, digests: await rowDigests(rows), local: undefined, published: undefined };
  }
  const view =
    dataset instanceof RemoteDataset
      ? dataset
      : await openDataset(dataset as string, client === undefined ? {} : { client });
  const rows: Row[] = [];
  const digests: string[] = [];
  for await (const row of view) {
    rows.push(row.value);
    digests.push(row.digest);
  }
  return { rows, digests, local: undefined, published: view.ref };
}
