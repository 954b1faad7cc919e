export { type DatasetParseProblem, DatasetParseError } from './dataset-parse-error.js';
export { type InvalidRow, InvalidDatasetRowsError } from './invalid-dataset-rows-error.js';
export { InvalidDatasetSourceError } from './invalid-dataset-source-error.js';
