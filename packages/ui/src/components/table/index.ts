export { ColumnChooser } from './column-chooser.js';
export { TableState } from './table-state.js';
