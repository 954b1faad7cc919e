export {
  type DatasetParseProblem,
  DatasetParseError,
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
