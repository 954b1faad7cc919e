export {
  Dataset,
  type DatasetOptions,
  type FromCallsOptions,
  type PublishDatasetOptions,
  type PublishedDataset,
} from './dataset.js';
export {
  DatasetParseError,
  type DatasetParseProblem,
  InvalidDatasetOptionsError,
  InvalidDatasetRowsError,
  InvalidDatasetSourceError,
  type InvalidRow,
} from './errors/index.js';
export {
  type CsvOptions,
  loadRows,
  parseCsv,
  parseJsonl,
  type Row,
  type RowFormat,
  type RowSource,
  validateRows,
} from './load.js';
export { type OpenDatasetOptions, openDataset, RemoteDataset, type RemoteRow } from './remote-dataset.js';
export { type DatasetHost, registerDatasetHost, setDefaultDatasetHost } from './dataset-host.js';
export { DatasetRefs } from './dataset-refs.js';
export type { TableDestination } from './table-delivery.js';
export { rowDigests } from './row-digests.js';
export { describeValue, isPlainObject } from './describe-value.js';
