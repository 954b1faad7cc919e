export { DatasetParseError, type DatasetParseProblem } from './dataset-parse-error.js';
export { InvalidDatasetOptionsError } from './invalid-dataset-options-error.js';
export { InvalidDatasetRowsError, type InvalidRow } from './invalid-dataset-rows-error.js';
export { InvalidDatasetSourceError } from './invalid-dataset-source-error.js';
